/**
 * Known XSS payloads for the Markdown renderer, and a check of rendered markup that runs on
 * any DOM (happy-dom in unit tests, Chromium in e2e). Every payload calls `alert(1)` if it runs.
 */
export const XSS_PAYLOADS: readonly string[] = [
  // Script elements
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//xss.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<template><script>alert(1)</script></template>',
  // Markdown links and images with dangerous schemes
  '[a](javascript:alert(1))',
  '[a](JaVaScRiPt:alert(1))',
  '[a](<javascript:alert(1)>)',
  '[a](  javascript:alert(1)  )',
  '[a](java%0ascript:alert(1))',
  '[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[a](vbscript:msgbox(1))',
  '![a](javascript:alert(1))',
  '![a](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![a](vbscript:msgbox(1))',
  '[a][ref]\n\n[ref]: javascript:alert(1)',
  '<javascript:alert(1)>',
  // Nested Markdown link tricks
  '[[x](javascript:alert(1))](https://ok.example)',
  '[x](https://ok.example "t\\" onmouseover=\\"alert(1)")',
  '![a](https://ok.example/a.png"onerror="alert(1))',
  '[<img src=x onerror=alert(1)>](https://ok.example)',
  '[a](https://ok.example)<a href="javascript:alert(1)">b</a>',
  '```js" onmouseover="alert(1)\ncode\n```',
  // HTML links with dangerous or disguised schemes
  '<a href="javascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
  '<a href="javascript&#58;alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav\nascript:alert(1)">x</a>',
  '<a href="&#x01;javascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<base href="javascript:alert(1)//">',
  // Event handler attributes
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<IMG SRC=x OnErRoR=alert(1)>',
  '<img src="https://ok.example/a.png" srcset="javascript:alert(1)">',
  '<details open ontoggle=alert(1)>x</details>',
  '<body onload=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<input type="checkbox" onclick="alert(1)">',
  '<p onmouseover="alert(1)">x</p>',
  // SVG and MathML
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math href="javascript:alert(1)">x</math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  // Frames, objects, forms, meta
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  // Styles
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="background-image:url(\'https://track.example/p.png\')">x</p>',
  '<style>@import "https://xss.example/x.css";</style>',
  '<div style="width:expression(alert(1))">x</div>',
  // Comments and parser differentials
  '<!--><script>alert(1)</script>-->',
  '<!-- --!><img src=x onerror=alert(1)> -->',
  '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
]

/**
 * What in a rendered tree could run script, load another document, or restyle the page: a
 * list of findings, empty when the markup is safe. Self-contained (no imports or outer
 * variables) so Playwright can send it to Chromium as it is.
 */
export function findUnsafeMarkup(root: Element): string[] {
  const forbiddenTags = new Set([
    'script',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'svg',
    'math',
    'style',
    'link',
    'meta',
    'base',
    'form',
    'button',
    'textarea',
    'select',
    'template',
    'noscript',
    'applet',
  ])
  const urlAttributes = new Set([
    'href',
    'src',
    'action',
    'formaction',
    'xlink:href',
    'data',
    'srcset',
    'srcdoc',
  ])
  const safeProtocols = new Set(['http:', 'https:', 'mailto:'])
  const findings: string[] = []
  for (const element of root.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase()
    if (forbiddenTags.has(tag)) findings.push(`<${tag}>`)
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase()
      if (name.startsWith('on')) findings.push(`${tag}[${name}]`)
      if (name === 'style' && !element.closest('pre.shiki')) findings.push(`${tag}[style]`)
      if (name === 'srcset' || name === 'srcdoc') findings.push(`${tag}[${name}]`)
      if (urlAttributes.has(name)) {
        const protocol = new URL(attribute.value, 'https://site.example/').protocol
        if (!safeProtocols.has(protocol)) findings.push(`${tag}[${name}=${attribute.value}]`)
      }
    }
  }
  return findings
}
