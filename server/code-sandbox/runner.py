# Runs one submission's programs in a Pyodide child process (pyodide-worker.ts), one test at a
# time, each with fresh globals, its own stdin and a capped stdout/stderr; afterwards the
# interpreter's shared state (builtins, modules, sys settings, files) is put back as it was.
# This is tidiness between the tests of one submission, not a boundary: learner code can reach
# this namespace (frames, gc), so no two submissions ever share a process (pool.ts).
import builtins
import io
import os
import sys
import traceback

# Loaded once here, so a program importing them neither pays the import nor keeps them.
import bisect, collections, copy, datetime, decimal, fractions, functools, heapq  # noqa: E401
import itertools, json, math, operator, random, re, statistics, string, textwrap  # noqa: E401
import time, typing  # noqa: E401


def _is_js_proxy(value):
    return type(value).__name__.startswith('JsProxy') or type(value).__module__ == 'pyodide.ffi'


def _js_proxy_places():
    """Where anything reachable keeps a JavaScript object: (namespace, key) pairs."""
    import gc
    places = []
    for holder in gc.get_objects():
        namespace = holder if isinstance(holder, dict) else getattr(holder, '__dict__', None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            if _is_js_proxy(value) and not isinstance(value, type):
                places.append((namespace, key))
    return places


# Found once, for the snapshot (walking every object costs each child a noticeable share of
# its start): the places are the same objects in every child started from it.
sys._sandbox_js_places = _js_proxy_places()
# ---- Above: run once, for the memory snapshot every child starts from (pyodide-worker.ts). ----

# No module of the JavaScript bridge stays importable by name.
for _name in [name for name in sys.modules if name == 'js' or name.startswith('pyodide_js')]:
    del sys.modules[_name]


# Nor does anything reachable keep JavaScript objects (the Pyodide API object above all, held by
# module namespaces and the import hook's loaders): what was stored at start-up is dropped. The
# realm is disarmed too (pyodide-worker.ts), as a program can make new ones.
def _drop_js_proxies():
    places = sys.__dict__.pop('_sandbox_js_places', None)
    for namespace, key in places if places is not None else _js_proxy_places():
        namespace[key] = None


_drop_js_proxies()


def _no_processes(*args, **kwargs):
    raise OSError(138, 'processes are not available in the sandbox')


# Emscripten's system() would hand the command to the host (refused there too, fatally).
os.system = _no_processes

_MAX_RECURSION = 10_000
_set_recursion_limit = sys.setrecursionlimit


def _capped_recursion_limit(limit):
    # Deeper, Python's frames overflow the thread's own stack: a fatal error, not RecursionError.
    if isinstance(limit, int) and limit > _MAX_RECURSION:
        limit = _MAX_RECURSION
    _set_recursion_limit(limit)


sys.setrecursionlimit = _capped_recursion_limit


def _sleep(seconds):
    # Sleeping blocks the thread where no interrupt reaches it; like the JavaScript timers, a
    # sleep takes no time here (the output is the same, and the time limit is for computing).
    if float(seconds) < 0:
        raise ValueError('sleep length must be non-negative')


time.sleep = _sleep
os.environ.pop('_', None)

_WRITABLE = ('/tmp', '/home/pyodide')


def _files():
    found = {}
    for top in ('/home', '/tmp', '/lib'):
        for folder, dirs, names in os.walk(top):
            for name in dirs + names:
                full = os.path.join(folder, name)
                info = os.lstat(full)
                found[full] = (info.st_size, info.st_mtime_ns, info.st_mode)
    return found


_modules = dict(sys.modules)
_namespaces = {name: dict(module.__dict__) for name, module in _modules.items()
               if isinstance(getattr(module, '__dict__', None), dict)}
_builtins = dict(builtins.__dict__)
# Classes of those modules can be changed in place too: that is not put back, but noticed.
_classes = [(value, dict(value.__dict__)) for name, module in _modules.items()
            for value in list(getattr(module, '__dict__', {}).values())
            if isinstance(value, type) and value.__module__ == name]
_environ = dict(os.environ)
_sys_lists = {name: list(getattr(sys, name)) for name in ('path', 'meta_path', 'path_hooks')}
_streams = (sys.stdin, sys.stdout, sys.stderr)
_recursion_limit = sys.getrecursionlimit()
_int_digits = sys.get_int_max_str_digits()
_baseline_files = _files()
_cwd = os.getcwd()


class _OutputLimit(BaseException):
    pass


class _Output(io.TextIOBase):
    """stdout or stderr of a run: kept in memory, both counted against one byte budget."""

    def __init__(self, parts, budget):
        self._parts = parts
        self._budget = budget

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        size = len(text.encode('utf-8', 'replace'))
        if size > self._budget[0]:
            self._parts.append(text.encode('utf-8', 'replace')[: self._budget[0]].decode('utf-8', 'ignore'))
            self._budget[0] = 0
            self._budget[1] = True
            raise _OutputLimit()
        self._budget[0] -= size
        self._parts.append(text)
        return len(text)

    def flush(self):
        pass


def _same(namespace, snapshot):
    if len(namespace) != len(snapshot):
        return False
    for key, value in snapshot.items():
        if namespace.get(key, _OutputLimit) is not value:
            return False
    return True


def _restore():
    """Puts the shared state back; False when something could not be (the worker is replaced)."""
    # Builtins first, without calling any: the program may have replaced them.
    builtins.__dict__.clear()
    builtins.__dict__.update(_builtins)
    clean = True
    sys.stdin, sys.stdout, sys.stderr = _streams
    for name in [name for name in sys.modules if name not in _modules]:
        del sys.modules[name]
    for name, module in _modules.items():
        if sys.modules.get(name) is not module:
            sys.modules[name] = module
        snapshot = _namespaces.get(name)
        if snapshot is not None and not _same(module.__dict__, snapshot):
            module.__dict__.clear()
            module.__dict__.update(snapshot)
    for name, items in _sys_lists.items():
        getattr(sys, name)[:] = items
    sys.setrecursionlimit(_recursion_limit)
    sys.set_int_max_str_digits(_int_digits)
    sys.settrace(None)
    sys.setprofile(None)
    os.chdir(_cwd)
    # `open(0)` closes descriptor 0 with the file: the next run gets it back.
    for fd, device, flags in ((0, '/dev/stdin', os.O_RDONLY), (1, '/dev/stdout', os.O_WRONLY),
                              (2, '/dev/stderr', os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            reopened = os.open(device, flags)
            if reopened != fd:
                os.dup2(reopened, fd)
                os.close(reopened)
    if dict(os.environ) != _environ:
        os.environ.clear()
        os.environ.update(_environ)
    for cls, snapshot in _classes:
        if not _same(cls.__dict__, snapshot):
            clean = False
    now = _files()
    for path in sorted(set(now) - set(_baseline_files), reverse=True):
        if path.startswith(_WRITABLE):
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    os.rmdir(path)
                else:
                    os.remove(path)
                continue
            except OSError:
                pass
        clean = False
    for path, info in _baseline_files.items():
        if now.get(path) != info and not path.startswith(_WRITABLE):
            clean = False
    return clean


def _line(error):
    if isinstance(error, SyntaxError) and error.filename == 'main.py':
        return error.lineno or 0
    line = 0
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == 'main.py':
            line = frame.lineno or 0
    return line


def run(code, stdin, output_limit):
    stdout, stderr = [], []
    budget = [output_limit, False]
    outcome, message, line, failure = 'completed', '', 0, None
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode('utf-8')), encoding='utf-8')
    sys.stdout = _Output(stdout, budget)
    sys.stderr = _Output(stderr, budget)
    try:
        program = compile(code, 'main.py', 'exec', dont_inherit=True)
        exec(program, {'__name__': '__main__', '__builtins__': builtins})
    except _OutputLimit:
        pass
    except SystemExit as error:
        if error.code not in (None, 0):
            outcome, message = 'error', f'SystemExit: {error.code}'
    except KeyboardInterrupt:
        outcome, message = 'interrupted', 'KeyboardInterrupt'
    except BaseException as error:  # noqa: BLE001 - every way a program can fail is reported
        outcome, failure = 'error', error
    finally:
        clean = _restore()
    if failure is not None:
        # Described once the modules it uses are back as they were. A syntax error's caret
        # lines are left out: the line number says where.
        message = traceback.format_exception_only(type(failure), failure)[-1].strip()
        line = _line(failure)
        del failure
    if budget[1]:
        outcome = 'output-limit'
    if not clean:
        # Not a verdict on the program: the next run gets a fresh worker (pool.ts).
        message = message or 'the sandbox state changed'
    return [outcome, ''.join(stdout), ''.join(stderr), message, line, clean]
