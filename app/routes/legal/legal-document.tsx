export type LegalSection = { heading: string; paragraphs: readonly string[] }

/** A legal text: numbered sections, with the date it took effect. */
export function LegalDocument(props: {
  title: string
  effective: string
  lead: string
  sections: readonly LegalSection[]
}) {
  return (
    <article className="max-w-3xl">
      <h1 className="text-2xl font-bold">{props.title}</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">{props.lead}</p>
      {props.sections.map((section, index) => (
        <section key={section.heading} className="mt-8">
          <h2 className="text-lg font-semibold">
            第{index + 1}条（{section.heading}）
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-2 text-slate-700 dark:text-slate-300">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
      <p className="mt-10 text-sm text-slate-500 dark:text-slate-400">{props.effective} 制定</p>
    </article>
  )
}
