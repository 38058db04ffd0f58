"""opticoll — collective communication schedules on optical interconnects, from Python.

The same library as the `opticoll` command, called in-process through cffi. Every command of the
CLI is a function here (run, compare, sweep, tune, perf, export, draw, verify, reproduce, synth,
train, throughput, rack, simgrid, physical_bound, algorithms, networks).
Results are flat records, the rows a DataFrame takes: one run is a `Record` (a dict whose nested
objects are spelled out as dotted keys, "params.k", "physical_bound.steps"), many are a `Table`
(a list of Records) with `to_pandas()` (pandas optional) and `plot()` (matplotlib optional). A
failure raises an `opticoll.Error` (a subclass per kind) with the library's one-line reason,
worded for Python: the reasons name the function's arguments, never the command's flags.

    >>> import opticoll
    >>> r = opticoll.run("allreduce", "ring", nodes=8, size="4MiB", network="switch")
    >>> r["verified"], r["steps"]
    (True, 14)

Sizes are bytes (an int) or the command's spellings ("4MiB", "1GiB"); counts (nodes, root, ...)
are whole numbers, numpy's integers included (anything with __index__), never bools; parameters
are dicts ({"k": 6}), passed as text as `-p k=6` would pass them. Every schedule is verified
(semantic verifier and the network model's resource check) before a result is returned. A long
call stops within a fraction of a second on Ctrl-C (KeyboardInterrupt): the library's progress
callback asks the work to stop (OC_ECANCELED), so nothing runs on after the interrupt.
"""
import json as _json
import math as _math
import operator as _operator
import re as _re
import signal as _signal
import threading as _threading

from ._opticoll import ffi as _ffi
from ._opticoll import lib as _lib

__version__ = _ffi.string(_lib.oc_version()).decode()

__all__ = ["run", "compare", "sweep", "tune", "perf", "export", "draw", "verify", "reproduce",
           "synth", "train", "throughput", "rack", "rack_example", "simgrid", "physical_bound",
           "algorithms",
           "networks",
           "papers", "Record", "Table", "Error", "InvalidArgument", "InvalidType",
           "UnknownName", "NotSupported", "TooBig", "VerificationError", "ResourceConflict",
           "ParseError", "OutOfMemory", "IOFailure", "Cancelled", "DRAW_DETAIL_NODES",
           "SIMGRID_MAX_NODES", "__version__"]

_WHY = 2048  # bytes for the library's reason, as the command gives it


# ---- errors -------------------------------------------------------------------------------------

class Error(Exception):
    """A failure of the library: `code` is the OC_ error code (negative), `kind` its name
    (oc_strerror), `reason` the one-line explanation (in the function's terms, not the CLI's)."""

    def __init__(self, code, reason):
        self.code = code
        self.kind = _ffi.string(_lib.oc_strerror(code)).decode()
        self.reason = _plain(reason) or self.kind
        super().__init__(self.reason)


class InvalidArgument(Error, ValueError):
    """OC_EINVAL / OC_ERANGE: a value the library refuses."""


class InvalidType(InvalidArgument, TypeError):
    """An argument of the wrong type (a bool or a float for a count, a list for a name)."""


class UnknownName(InvalidArgument):
    """OC_ENOENT: an unknown collective, algorithm, network, parameter or paper."""


class ParseError(InvalidArgument):
    """OC_EPARSE: malformed input (a size, a schedule file)."""


class NotSupported(Error):
    """OC_ENOTSUP: the algorithm does not run with these parameters or on this network."""


class TooBig(Error):
    """OC_ETOOBIG: past a limit or the memory budget; the reason says which."""


class VerificationError(Error):
    """OC_EVERIFY: the schedule failed the semantic verifier."""


class ResourceConflict(Error):
    """OC_ERESOURCE: the network model found a resource used twice."""


class OutOfMemory(Error, MemoryError):
    """OC_ENOMEM."""


class IOFailure(Error, OSError):
    """OC_EIO: a file could not be read or written."""


class Cancelled(Error):
    """OC_ECANCELED: the work was asked to stop (Ctrl-C raises KeyboardInterrupt instead)."""


_ERRORS = {-1: InvalidArgument, -2: OutOfMemory, -3: InvalidArgument, -4: UnknownName,
           -5: NotSupported, -6: VerificationError, -7: ResourceConflict, -8: ParseError,
           -9: IOFailure, -10: TooBig, -11: Cancelled}

# The command's flags, as the library's reasons sometimes name them, and what they are here. A
# flag with its value ("-n 8", "--net k=") becomes the argument's name; "see opticoll list" becomes
# the registry function.
_FLAGS = {"-c": "collective", "--collective": "collective", "-a": "algorithm",
          "--algorithm": "algorithm", "-t": "network", "--network": "network", "-n": "nodes",
          "--nodes": "nodes", "-s": "size", "--size": "size", "--sizes": "sizes", "-r": "root",
          "--root": "root", "-w": "wavelengths", "--wavelengths": "wavelengths", "-f": "fibres",
          "--fibres": "fibres", "--preset": "net_params preset", "--net": "net_params",
          "-p": "params", "--param": "params", "--explain": "explain=True",
          "--runtime": "runtime", "-o": "output", "--output": "output", "-m": "model",
          "--model": "model", "--models": "models", "--objective": "objective",
          "--peak-tflops": "peak_tflops", "--utilisation": "utilisation", "--tokens": "tokens",
          "--buckets": "buckets", "-b": "minbytes", "-e": "maxbytes", "--json": "",
          "--format": "format", "--links": "links=True", "-j": "threads",
          "--round": "round", "--servers": "servers", "--tiles": "tiles", "--tenants": "tenants",
          "--sipac-r": "sipac_r", "--sipac-l": "sipac_l", "--seed": "seed", "--trace": "trace",
          "--decisions": "decisions"}
_FLAG = _re.compile(r"(?<![\w-])(--?[a-z][a-z-]*)\b")


def _plain(reason):
    """The library's reason in this package's words: command names and flags become functions and
    arguments ("-t" -> "network", "see opticoll list" -> "see opticoll.algorithms()")."""
    if not reason:
        return reason
    text = reason.replace("(see opticoll list)", "(see opticoll.algorithms())")
    text = text.replace("see opticoll list", "see opticoll.algorithms()")
    text = _re.sub(r"`?opticoll (\w+)`?", r"opticoll.\1()", text)
    text = _re.sub(r"\b(run|tune|compare) --explain\b", r"\1(explain=True)", text)
    text = text.replace("tune -o", "opticoll.tune()")

    def swap(m):
        name = _FLAGS.get(m.group(1))
        return m.group(1) if name is None else name
    text = _FLAG.sub(swap, text)
    return _re.sub(r"\s+([:,)])", r"\1", text).strip()


def _raise(code, why=None):
    reason = _ffi.string(why).decode(errors="replace") if why is not None else ""
    raise _ERRORS.get(code, Error)(code, reason)


# ---- arguments: every check of user input is here ------------------------------------------------

def _arg(kind, value, what, low=0, high=2**32 - 1, choices=None):
    """The one place arguments are checked and converted (the library checks them again). kind:
    "count" a whole number in [low, high] (int, numpy integers: operator.index; never a bool);
    "size" bytes as an int or the command's text ("4MiB"; "nccl-size" also nccl-tests' "128M");
    "text" a str without NUL or lone surrogates (names, paths);
    "choice" one of `choices`; "flag" a bool; "number" a finite real in [low, high]; "pairs" a
    dict of names to scalars (params, net_params) as text pairs; "names" a list of names or one
    comma-separated str. Raises InvalidType or InvalidArgument (ParseError for a malformed size)
    with one line naming `what`."""
    if kind == "flag":
        if not isinstance(value, bool) and type(value).__name__ != "bool_":  # numpy's bool too
            raise InvalidType(-1, f"{what} {value!r}: expected True or False")
        return bool(value)
    if kind == "count":
        if isinstance(value, bool) or type(value).__name__.startswith("bool"):
            raise InvalidType(-1, f"{what} {value!r}: expected a whole number, not a bool")
        try:
            n = _operator.index(value)
        except TypeError:
            raise InvalidType(-1, f"{what} {value!r}: not a whole number") from None
        if not low <= n <= high:
            raise InvalidArgument(-3, f"{what} {n}: out of range {low}..{high}")
        return n
    if kind == "text":
        if not isinstance(value, str):
            raise InvalidType(-1, f"{what} {value!r}: expected a str")
        if "\x00" in value:
            raise InvalidArgument(-1, f"{what} {value!r}: contains a NUL character")
        try:  # a lone surrogate ("\udc80": os.fsdecode's escape of a byte) has no UTF-8
            value.encode()
        except UnicodeEncodeError as e:
            raise InvalidArgument(-1, f"{what} {value!r}: not UTF-8 text (a lone surrogate at "
                                      f"{e.start})") from None
        if not value:
            raise InvalidArgument(-1, f"{what}: empty")
        return value
    if kind == "choice":
        if not isinstance(value, str) or value not in choices:
            raise InvalidArgument(-1, f"{what} {value!r}: expected one of {', '.join(choices)}")
        return value
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(
                value, "__float__"):
            raise InvalidType(-1, f"{what} {value!r}: expected a number")
        x = float(value)
        if not _math.isfinite(x) or not low <= x <= high:
            raise InvalidArgument(-3, f"{what} {value!r}: expected a number from {low} to {high}")
        return x
    if kind in ("size", "nccl-size"):
        if isinstance(value, str):
            text = _arg("text", value, what)
            # nccl-tests' -b/-e spelling: K, M, G are powers of 1024 ("128M" is 128 MiB)
            if kind == "nccl-size" and _re.fullmatch(r"[0-9]+[KMGkmg]", text):
                text = text[:-1] + text[-1].upper() + "iB"
        else:
            n = _arg("count", value, what, 0, 2**64 - 1)
            text = str(n)
        out = _ffi.new("uint64_t *")
        rc = _lib.oc_parse_size(text.encode(), out)
        if rc == -3:
            raise InvalidArgument(rc, f"{what} {value!r}: larger than the 1 PiB limit")
        if rc:
            raise ParseError(rc, f"{what} {value!r}: not a size (e.g. 4096, 4KiB, 4MiB, 1GiB, 4MB)")
        return out[0]
    if kind == "pairs":
        if value is None:
            return []
        if not isinstance(value, dict):
            raise InvalidType(-1, f"{what} {value!r}: expected a dict of names to values")
        pairs = []
        for key, v in value.items():
            key = _arg("text", key, f"{what} key")
            if isinstance(v, bool) or type(v).__name__.startswith("bool"):
                raise InvalidType(-1, f"{what} {key}={v!r}: expected a number or a str, not a bool")
            if isinstance(v, str):
                text = _arg("text", v, f"{what} {key}")
            elif isinstance(v, float):
                text = repr(v)
            elif hasattr(v, "__index__"):
                text = str(_operator.index(v))
            elif hasattr(v, "__float__"):
                text = repr(float(v))
            else:
                raise InvalidType(-1, f"{what} {key}={v!r}: expected a number or a str")
            pairs.append((key, text))
        return pairs
    if kind == "names":
        if isinstance(value, str):
            value = value.split(",")
        if not isinstance(value, (list, tuple)):
            raise InvalidType(-1, f"{what} {value!r}: expected a list of names")
        return [_arg("text", v, what) for v in value]
    raise AssertionError(kind)


# ---- the C side: requests, texts, interruptible calls -------------------------------------------

def _take_text(ptr):
    """The library's malloc'ed text as str; frees it."""
    try:
        return _ffi.string(ptr[0]).decode()
    finally:
        _lib.free(ptr[0])


class _Kv:
    """An oc_kv built from checked pairs, freed with the object."""

    def __init__(self, pairs, what):
        self.ptr = _ffi.NULL
        pairs = _arg("pairs", pairs, what)
        if pairs:
            self.ptr = _ffi.gc(_lib.oc_kv_new(), _lib.oc_kv_free)
            if self.ptr == _ffi.NULL:
                raise OutOfMemory(-2, "out of memory")
            for key, value in pairs:
                rc = _lib.oc_kv_set(self.ptr, key.encode(), value.encode())
                if rc:
                    raise _ERRORS.get(rc, Error)(rc, f"{what} {key}={value}")


def _collective(name):
    name = _arg("text", name, "collective")
    out = _ffi.new("oc_collective *")
    if _lib.oc_collective_from_name(name.encode(), out):
        raise UnknownName(-4, f"unknown collective '{name}' (see opticoll.algorithms())")
    return out[0]


class _Stop:
    """The flag opy_progress reads: set on Ctrl-C, it asks the running work to stop."""

    def __init__(self):
        self.flag = _ffi.new("int *")
        self.fn = _ffi.addressof(_lib, "opy_progress")


class _Request:
    """An oc_request and everything its pointers reach, alive as long as this object."""

    def __init__(self, collective, algorithm, nodes, size, network, params, net_params, root,
                 data_check=True, objective="time", links=False, explain=False):
        self.req = _ffi.new("oc_request *")
        self.req.collective = _collective(collective)
        self.algorithm = (_ffi.new("char[]", _arg("text", algorithm, "algorithm").encode())
                          if algorithm else _ffi.NULL)
        self.network = _ffi.new("char[]", _arg("text", network, "network").encode())
        self.req.algorithm = self.algorithm
        self.req.network = self.network
        self.req.nodes = _arg("count", nodes, "nodes", 1)
        self.req.bytes = _arg("size", size, "size")
        self.req.root = _arg("count", root, "root")
        self.params = _Kv(params, "params")
        self.net_params = _Kv(net_params, "net_params")
        self.req.params = self.params.ptr
        self.req.net_params = self.net_params.ptr
        self.req.skip_data_check = not _arg("flag", data_check, "data_check")
        self.req.links = _arg("flag", links, "links")
        self.req.explain = _arg("flag", explain, "explain")
        self.req.objective = 0 if _arg("choice", objective, "objective",
                                       choices=("time", "steps")) == "time" else 1
        self.stop = _Stop()
        self.req.progress = self.stop.fn
        self.req.progress_ctx = self.stop.flag


_CANCELLED = -11  # OC_ECANCELED: the library stopped the work when its progress callback asked


def _interruptible(call, stop):
    """call() -> its value (the library's return code), on a worker thread while this one waits
    for Ctrl-C: the interrupt sets stop's flag, the library's progress callback reads it and the
    call returns OC_ECANCELED within a report (a tenth of a second, or one step of the work),
    then KeyboardInterrupt is raised here, with `opticoll_cancelled` True when the library
    stopped the work (OC_ECANCELED) and False when the work had ended before it heard the stop.
    Off the main thread (which alone receives signals) the call is made directly."""
    if _threading.current_thread() is not _threading.main_thread():
        return call()
    box, done = {}, _threading.Event()

    def work():
        try:
            box["value"] = call()
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e
        finally:
            done.set()

    # An Event, not Thread.join: a join interrupted by KeyboardInterrupt can leave the thread
    # looking stopped while it runs on. SIGINT is held while the thread starts: an interrupt
    # inside Thread.start() would otherwise escape before the flag is set, with the work
    # started and never asked to stop; held, it is raised once the wait below has begun.
    worker = _threading.Thread(target=work, name="opticoll-call", daemon=True)
    held = _signal.pthread_sigmask(_signal.SIG_BLOCK, [_signal.SIGINT])
    try:
        worker.start()
        _signal.pthread_sigmask(_signal.SIG_SETMASK, held)
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt as interrupt:
        stop.flag[0] = 1
        # (a thread never started, an interrupt pending before start(), has nothing to wait for)
        while worker.ident is not None and (not done.is_set() or worker.is_alive()):
            try:  # the thread itself ended too, not only its work: nothing runs on after this
                worker.join(0.05) if done.is_set() else done.wait(0.05)
            except KeyboardInterrupt:  # a second Ctrl-C while the work winds down
                pass
        interrupt.opticoll_cancelled = box.get("value") == _CANCELLED
        raise
    finally:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, held)  # also when start() failed
    # The work is over (done is set) but its thread may not have ended yet: a caller that looks
    # (threading.enumerate) right after must not see it, however loaded the machine is.
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


# The library's results handed back through a pointer (a report, a malloc'ed text), which the
# caller frees once it has read them.
_OUTPUTS = {_ffi.typeof("oc_report **"): _lib.oc_report_free, _ffi.typeof("char **"): _lib.free}


def _library_call(stop, fn, *args):
    """fn(*args, why, len) made interruptible; its error raised with the library's reason. When
    the call raises instead of returning (KeyboardInterrupt: the work may have ended, its results
    made, before it heard the stop), the results its output arguments hold are freed here: no
    one else would."""
    why = _ffi.new("char[]", _WHY)
    try:
        rc = _interruptible(lambda: fn(*args, why, _WHY), stop)
    except BaseException:
        for a in args:
            free = _OUTPUTS.get(_ffi.typeof(a)) if isinstance(a, _ffi.CData) else None
            if free is not None and a[0] != _ffi.NULL:
                free(a[0])
                a[0] = _ffi.NULL
        raise
    if rc:
        _raise(rc, why)


# ---- results: flat records -----------------------------------------------------------------------

def _flatten(obj, prefix="", out=None):
    out = {} if out is None else out
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            _flatten(value, name + ".", out)
        else:
            out[name] = value
    return out


class Record(dict):
    """One result as a flat dict: nested objects of the command's JSON become dotted keys
    ("params.k", "physical_bound.time_s"); lists stay values."""

    @classmethod
    def of(cls, obj):
        return cls(_flatten(obj))

    def to_pandas(self):
        """A one-row pandas DataFrame (pandas is optional: python3-pandas on Debian)."""
        return Table([self]).to_pandas()


class Table(list):
    """Many results: a list of Records, each a row. `columns` lists every key in first-seen
    order; to_pandas() is a DataFrame with those columns, plot() draws y against x. `summary` is
    a dict of what the command prints beside the rows (perf: its settings and nccl-tests' footer;
    empty for the others)."""

    def __init__(self, rows=()):
        super().__init__(r if isinstance(r, Record) else Record.of(r) for r in rows)
        self.summary = {}

    @property
    def columns(self):
        seen = {}
        for row in self:
            for key in row:
                seen.setdefault(key, None)
        return list(seen)

    def to_pandas(self):
        """A pandas DataFrame, one row per record (missing values are NaN)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Table.to_pandas needs pandas (Debian: apt-get install "
                              "python3-pandas; or pip install pandas)") from e
        return pandas.DataFrame(list(self), columns=self.columns)

    def plot(self, x, y, by=None, ax=None, logx=True, logy=True):
        """Draws column y against column x, one line per value of column `by` (e.g. "algorithm"),
        on a matplotlib Axes (a new figure when ax is None); returns the Axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise ImportError("Table.plot needs matplotlib (Debian: apt-get install "
                              "python3-matplotlib; or pip install matplotlib)") from e
        if ax is None:
            _, ax = plt.subplots()
        groups = {}
        for row in self:
            if row.get(x) is not None and row.get(y) is not None:
                groups.setdefault(row.get(by) if by else y, []).append((row[x], row[y]))
        for label, points in groups.items():
            points.sort()
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=str(label))
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        if by:
            ax.legend()
        return ax


def _records(objects):
    """The command's JSON objects as a Table; a "not_run" reason in this package's words."""
    rows = Table(objects)
    for row in rows:
        if isinstance(row.get("not_run"), str):
            row["not_run"] = _plain(row["not_run"])
    return rows


def _report(out):
    """The report a library call left in out[0], as a Record (and freed)."""
    try:
        text = _ffi.new("char **")
        rc = _lib.opy_report_json(out[0], text)
        if rc:
            _raise(rc)
        return Record.of(_json.loads(_take_text(text)))
    finally:
        _lib.oc_report_free(out[0])


# ---- the commands -------------------------------------------------------------------------------

def _auto(collective, nodes, size, network, net_params, root, data_check, decisions):
    """`run -a auto`'s choice: (algorithm, note) from the decision file at `decisions`
    (oc_tune_auto_decided: the winner of its nearest tuned point), or else by tuning this one
    point (oc_tune_auto_sweep: every algorithm of the collective on the network, each verified,
    the fastest chosen; Ctrl-C stops it)."""
    import os
    request = _Request(collective, None, nodes, size, network, None, net_params, root, data_check)
    choice = _ffi.gc(_ffi.new("oc_tune_auto *"), _lib.oc_tune_auto_free)
    why = _ffi.new("char[]", _WHY)
    skipped = None
    if decisions is not None:
        path = _arg("text", os.fspath(decisions) if hasattr(decisions, "__fspath__") else
                    decisions, "decisions")
        # the nearest point whose winner runs here (each winner checked: its network, node cap,
        # plan and, where it searches, its search: interruptible)
        _library_call(request.stop, _lib.oc_tune_auto_decided, path.encode(), b"decisions ",
                      request.req, choice)
        if choice.algorithm == _ffi.NULL:  # no winner of the file runs here: tune this point
            skipped = _plain(_ffi.string(choice.note).decode())
            _lib.oc_tune_auto_free(choice)
    if choice.algorithm == _ffi.NULL:
        out = _ffi.new("oc_sweep **")
        rc = _lib.oc_tune_auto_sweep(request.req, out, why, _WHY)
        if rc:
            _raise(rc, why)
        s = _ffi.gc(out[0], _lib.oc_sweep_free)
        _library_call(request.stop, _lib.oc_sweep_run, s, 0, _lib.oc_sweep_count(s), 0)
        at = _ffi.new("size_t *")
        rc = _lib.oc_sweep_first_failure(s, at)
        if rc:
            p = _lib.oc_sweep_point_at(s, at[0])
            name = _ffi.string(_lib.oc_sweep_algorithm(s, p.algorithm)).decode()
            raise _ERRORS.get(rc, Error)(rc, f"auto: {name}: {_ffi.string(p.why).decode()}")
        _library_call(request.stop, _lib.oc_tune_auto_chosen, s, choice)
    if choice.algorithm == _ffi.NULL:
        raise NotSupported(-5, f"auto: no {collective} algorithm runs at this nodes and size on "
                               f"{network}" + (f" ({skipped})" if skipped else ""))
    note = _plain(_ffi.string(choice.note).decode())
    return _ffi.string(choice.algorithm).decode(), f"{skipped}; {note}" if skipped else note


def run(collective, algorithm, nodes, size, network="ring", params=None, net_params=None, root=0,
        data_check=True, objective="time", links=False, explain=False, decisions=None):
    """Generates, verifies and costs one schedule: `opticoll run ... --json` as a flat Record.

    algorithm "auto" chooses the algorithm first, as `run -a auto` does: the winner of the
    nearest point of a decision file (decisions=PATH, written from opticoll.tune()'s dict or by
    `opticoll tune -o`), or else the fastest verified run of every algorithm of the collective at
    this very point; the record's "auto" says which and why (the command's note), and params may
    not be pinned (the chosen algorithm optimises its own). params pins the algorithm's
    parameters ({"k": 6}); net_params sets the network's ({"wavelengths": 64}); objective is
    "time" or "steps" for parameter searches."""
    note = None
    if algorithm == "auto":
        if params:
            raise InvalidArgument(-1, "params: algorithm='auto' pins nothing (the chosen "
                                      "algorithm optimises its own parameters)")
        algorithm, note = _auto(collective, nodes, size, network, net_params, root, data_check,
                                decisions)
    elif decisions is not None:
        raise InvalidArgument(-1, "decisions: a decision file goes with algorithm='auto'")
    request = _Request(collective, algorithm, nodes, size, network, params, net_params, root,
                       data_check, objective, links, explain)
    out = _ffi.new("oc_report **")
    _library_call(request.stop, _lib.oc_run, request.req, out)
    record = _report(out)
    if note is not None:
        record["auto"] = note
    return record


def physical_bound(collective, nodes, size, network="ring", net_params=None, root=0):
    """The physical bound (oc_physical_bound): the fewest steps and least time EVERY schedule the
    network model accepts needs for the collective on `nodes` with `size`, whatever the algorithm,
    as a Record {"steps", "time_s", "argument", "steps_argument", "time_argument"} — the object
    each run carries as "physical_bound.*". Not the run's "steps_lower_bound", which bounds one
    schedule on the model."""
    request = _Request(collective, None, nodes, size, network, None, net_params, root, False)
    why = _ffi.new("char[]", _WHY)
    out = _ffi.new("oc_physical_bound_info *")
    rc = _lib.oc_physical_bound(request.req, out, why, _WHY)
    if rc:
        _raise(rc, why)
    steps_arg = _ffi.string(out.steps_argument).decode()
    time_arg = _ffi.string(out.time_argument).decode()
    return Record({"steps": out.steps, "time_s": out.time_s,
                   "argument": f"steps: {steps_arg}; time: {time_arg}",
                   "steps_argument": steps_arg, "time_argument": time_arg})


class _Names(list):
    """A list of names that still answers the old comma-separated string's split() and str()."""

    def split(self, sep=None, maxsplit=-1):
        return str(self).split(sep, maxsplit) if sep != "," else list(self)

    def __str__(self):
        return ",".join(self)


_COLLECTIVES = ["allgather", "reducescatter", "allreduce", "broadcast", "scatter", "gather",
                "alltoall", "gossip"]


def algorithms(collective=None, network=None):
    """The registry as a Table: one record per algorithm (name, collective, networks (a list),
    summary, restriction, cost, params), optionally only a collective's and those that run on a
    network."""
    coll = _collective(collective) if collective is not None else None
    net = _arg("text", network, "network") if network is not None else None
    out = []
    for i in range(_lib.oc_algorithm_count()):
        a = _lib.oc_algorithm_at(i)
        if coll is not None and a.collective != coll:
            continue
        if net is not None and not _lib.oc_algorithm_runs_on(a, net.encode()):
            continue
        entry = Record(name=_ffi.string(a.name).decode(), collective=_COLLECTIVES[a.collective])
        entry["networks"] = _Names(_ffi.string(a.networks).decode().split(","))
        for field in ("summary", "restriction", "cost", "params"):
            entry[field] = _ffi.string(getattr(a, field)).decode()
        out.append(entry)
    return Table(out)


def networks(detail=False):
    """The network models' names (a list); detail=True: a Table with each one's summary and
    parameters."""
    names = [_ffi.string(_lib.oc_network_at(i).name).decode() for i in range(_lib.oc_network_count())]
    if not _arg("flag", detail, "detail"):
        return names
    return Table(Record(name=n, summary=_ffi.string(_lib.oc_network_at(i).summary).decode(),
                        params=_ffi.string(_lib.oc_network_at(i).params).decode())
                 for i, n in enumerate(names))


def papers():
    """The papers `reproduce` takes, in the order "all" runs them."""
    return [_ffi.string(_lib.oc_paper_name(i)).decode() for i in range(_lib.oc_paper_count())]


def compare(collective, nodes, size, network="ring", algorithms=None, params=None,
            net_params=None, root=0, data_check=True):
    """Every algorithm of the collective (or those `algorithms` lists), each verified, as a Table:
    `opticoll compare ... --json`'s records, from the same library call (oc_compare). Runs come
    first, in registry (or list) order, then {"algorithm": NAME, "not_run": REASON} for those that
    do not run on the network or whose restrictions exclude these parameters. `algorithms` names
    algorithms of the collective that run on the network, each once. params pins KEY for every
    compared algorithm that takes it, or "ALGO.KEY" for ALGO alone (which wins); a key no compared
    algorithm takes is an UnknownName error."""
    request = _Request(collective, None, nodes, size, network, None, net_params, root, data_check)
    pins = _Kv(params, "params")
    names, count, keep = _ffi.NULL, 0, []
    if algorithms is not None:
        keep = [_ffi.new("char[]", a.encode()) for a in _arg("names", algorithms, "algorithms")]
        names, count = _ffi.new("const char *[]", keep), len(keep)
    text = _ffi.new("char **")
    _library_call(request.stop, _lib.opy_compare_json, request.req, names, count, pins.ptr, text)
    return _records(_json.loads(_take_text(text)))


_FORMATS = ("json", "chrome", "msccl", "msccl-inplace", "chakra", "astra-sim")


def _blobs(fn, *args):
    """The framed bytes an export glue call returns (8 bytes of length, then the data, after
    one another) as a list of bytes objects."""
    text, n = _ffi.new("char **"), _ffi.new("size_t *")
    fn(*args, text, n)
    try:
        blob = bytes(_ffi.buffer(text[0], n[0]))
    finally:
        _lib.free(text[0])
    out, at = [], 0
    while at < len(blob):
        length = int.from_bytes(blob[at:at + 8], "little")
        out.append(blob[at + 8:at + 8 + length])
        at += 8 + length
    return out


def export(collective, algorithm, nodes, size, format="json", network="ring", params=None,
           net_params=None, root=0, runtime=None, objective="time"):
    """The verified schedule in a file format: "json" (opticoll's schedule, as a dict), "chrome"
    (the Chrome/Perfetto timeline, as a dict), "msccl" / "msccl-inplace" (MSCCL's XML, as text,
    for `runtime` "msccl-nccl" (None) or "rccl"), "chakra" (ASTRA-sim's Chakra execution traces:
    a list of bytes, one file per rank), "astra-sim" (the switch only: the Chakra traces plus
    the network, system and memory configuration of ASTRA-sim's analytical backend, its command
    line and opticoll's report, as a dict of file name to bytes, as `export --format astra-sim -o
    DIR` writes them into DIR)."""
    format = _arg("choice", format, "format", choices=_FORMATS)
    if runtime is not None and not format.startswith("msccl"):
        raise InvalidArgument(-1, f"runtime {runtime!r}: only the msccl formats take a runtime")
    request = _Request(collective, algorithm, nodes, size, network, params, net_params, root,
                       objective=objective)
    text = _ffi.new("char **")
    if format.startswith("msccl"):
        rt = _ffi.new("char[]", _arg("text", runtime, "runtime").encode()) if runtime else _ffi.NULL
        _library_call(request.stop, _lib.opy_export_msccl, request.req, rt,
                      1 if format == "msccl-inplace" else 0, text)
        return _take_text(text)
    if format == "chakra":
        return _blobs(lambda t, n: _library_call(request.stop, _lib.opy_export_bytes,
                                                 request.req, t, n))
    if format == "astra-sim":
        parts = _blobs(lambda t, n: _library_call(request.stop, _lib.opy_export_astra,
                                                  request.req, t, n))
        return {parts[i].decode(): parts[i + 1] for i in range(0, len(parts), 2)}
    fn = _lib.opy_export
    _library_call(request.stop, fn, {"json": 0, "chrome": 2}[format], request.req, text)
    return _json.loads(_take_text(text))


# Past this many nodes a drawing is summarised: each panel a matrix of 64 x 64 blocks of nodes
DRAW_DETAIL_NODES = _lib.OC_DRAW_DETAIL_NODES
# `opticoll draw`'s caps (tools/cmd_draw.c): past either, nothing is drawn (TooBig)
_DRAW_MAX_PANELS, _DRAW_MAX_ELEMENTS = 256, 20000
_DRAW_FORMATS = ("svg", "png", "gnuplot")


def _draw_format(format, output):
    """svg, png or gnuplot: `format`, or else the output name's suffix (.png, .gp), as the
    command decides."""
    if format is not None:
        return _arg("choice", format, "format", choices=_DRAW_FORMATS)
    suffix = str(output).lower().rsplit(".", 1)[-1] if output and "." in str(output) else ""
    return {"png": "png", "gp": "gnuplot", "gnuplot": "gnuplot"}.get(suffix, "svg")


def _png_of(script):
    """gnuplot's pngcairo drawing of a draw script, as bytes, checked whole (the PNG's chunks
    walked to an IEND that ends it), as the command's plotting path does."""
    import os
    import shutil
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory(prefix="opticoll-draw-") as d:
        p = subprocess.run([shutil.which("gnuplot") or "gnuplot", "-e",
                            "opticoll_output='drawing.png'", "-"], input=script.encode(),
                           cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        png = b""
        if os.path.exists(os.path.join(d, "drawing.png")):
            with open(os.path.join(d, "drawing.png"), "rb") as f:
                png = f.read()
    at = 8
    whole = png[:8] == b"\x89PNG\r\n\x1a\n"
    while whole and at + 8 <= len(png):
        nxt = at + 12 + int.from_bytes(png[at:at + 4], "big")
        if png[at + 4:at + 8] == b"IEND":
            break
        at = nxt
    if p.returncode or not whole or at + 12 != len(png):
        lines = p.stderr.decode(errors="replace").strip().splitlines()
        raise IOFailure(-9, "gnuplot could not draw the PNG" + (f": {lines[-1]}" if lines else ""))
    return png


def _write_whole(path, data):
    """data into path whole or not at all: a temporary beside it, renamed over it. A failure (a
    full disk, a directory or a missing one at path) is IOFailure in one line, as every other
    error of the package is typed: it was the bare OSError of the step that failed."""
    import os
    import tempfile
    path = _arg("text", os.fspath(path) if hasattr(path, "__fspath__") else path, "output")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".opticoll-",
                                   dir=os.path.dirname(os.path.abspath(path)))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise IOFailure(-9, f"cannot write {path}: {e.strerror or e}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _draw_text(stop, req, path, network, net_params, opt):
    """opy_draw's document as str (interruptible where a request carries the stop flag)."""
    text, n = _ffi.new("char **"), _ffi.new("size_t *")
    _library_call(stop, _lib.opy_draw, req, path, network, net_params, opt, text, n)
    try:
        return bytes(_ffi.buffer(text[0], n[0])).decode()
    finally:
        _lib.free(text[0])


def draw(collective=None, algorithm=None, nodes=None, size=None, network=None, params=None,
         net_params=None, root=0, schedule=None, round=None, format=None, output=None,
         objective="time"):
    """`opticoll draw`: the schedule, verified and mapped on its network, as a picture from the
    network model's own placements: the ring's lightpaths per step (arcs coloured by wavelength,
    dashed by fibre), the star's transmissions and filter tunings per step, the fabric's circuits
    per round, a sender x receiver matrix per round on the switch, the fat-tree and the direct
    networks; past 64 nodes every panel a matrix of 64 x 64 blocks of nodes. An index links to
    each round's view ("#round-R"); round=R draws round R alone.

    The schedule is the request (collective, algorithm, nodes, size, as `run` takes them) or a
    schedule file (schedule=PATH; network, when given, replaces the file's). The request's network
    is "ring" unless given. format is
    "svg" (the SVG document, a str), "gnuplot" (gnuplot's script of the same picture, a str) or
    "png" (bytes, drawn by gnuplot's pngcairo); by default the output name's suffix (.png, .gp)
    or else svg. With output=PATH the drawing is also written there, whole or not at all.
    Returns the drawing. Past 256 panels or 20000 drawn elements: TooBig, and nothing is
    written."""
    import os
    import shutil
    if output is not None:
        output = _arg("text", os.fspath(output) if hasattr(output, "__fspath__") else output,
                      "output")
    as_ = _draw_format(format, output)
    if as_ == "png" and not shutil.which("gnuplot"):  # said before the work, as the command
        raise NotSupported(-5, "a PNG is drawn by gnuplot, which is not installed (apt-get "
                               "install gnuplot-nox); format='svg' needs nothing")
    opt = _ffi.new("oc_draw_options *")
    opt.round = -1 if round is None else _arg("count", round, "round", 0, 2**62)
    opt.max_panels, opt.max_elements = _DRAW_MAX_PANELS, _DRAW_MAX_ELEMENTS
    opt.format = 0 if as_ == "svg" else 1
    # a script names its own PNG, as the command's: the output's name with .png for .gp
    stem = output.rsplit(".", 1)[0] if output and "." in os.path.basename(output) else output
    image = _ffi.new("char[]", (stem + ".png" if as_ == "gnuplot" and output else
                                "drawing.png").encode())
    opt.image = image
    if schedule is not None:
        if any(v is not None for v in (collective, algorithm, nodes, size)):
            raise InvalidArgument(-1, "schedule: the file says what the schedule is; give "
                                      "either schedule or collective, algorithm, nodes, size")
        if params is not None:
            raise InvalidArgument(-1, "params: a schedule file's parameters are its own")
        path = _arg("text", os.fspath(schedule) if hasattr(schedule, "__fspath__") else
                    schedule, "schedule")
        path_c = _ffi.new("char[]", path.encode())
        net = (_ffi.new("char[]", _arg("text", network, "network").encode())
               if network else _ffi.NULL)
        kv = _Kv(net_params, "net_params")
        stop = _Stop()  # the file's reading, verifier and model poll it: Ctrl-C stops them
        opt.progress, opt.progress_ctx = stop.fn, stop.flag
        text = _draw_text(stop, _ffi.NULL, path_c, net, kv.ptr, opt)
    else:
        missing = [k for k, v in (("collective", collective), ("algorithm", algorithm),
                                  ("nodes", nodes), ("size", size)) if v is None]
        if missing:
            raise InvalidArgument(-1, f"draw needs {', '.join(missing)} (or schedule=PATH)")
        request = _Request(collective, algorithm, nodes, size, network or "ring", params,
                           net_params, root, objective=objective)
        text = _draw_text(request.stop, request.req, _ffi.NULL, _ffi.NULL, _ffi.NULL, opt)
    out = _png_of(text) if as_ == "png" else text
    if output is not None:
        _write_whole(output, out if isinstance(out, bytes) else out.encode())
    return out


def verify(path, network=None, net_params=None):
    """Reads a schedule file (opticoll's JSON or MSCCL XML), verifies it and, when the file or
    `network` names a network, maps it: `opticoll verify FILE --json` as a Record. Ctrl-C stops
    it (KeyboardInterrupt) while the file is read, a transfer at a time, and while it is
    checked, as a run (oc_verify_file_progress)."""
    import os
    path = _arg("text", os.fspath(path) if hasattr(path, "__fspath__") else path, "path")
    kv = _Kv(net_params, "net_params")
    out = _ffi.new("oc_report **")
    net = _ffi.new("char[]", _arg("text", network, "network").encode()) if network else _ffi.NULL
    path_c = _ffi.new("char[]", path.encode())
    stop = _Stop()
    _library_call(stop, _lib.oc_verify_file_progress, _ffi.NULL, path_c, net, kv.ptr, stop.fn,
                  stop.flag, out)
    return _report(out)


# The command's limits on sweeps and tuning (tools/points.c): values a list, points in all.
_MAX_LIST, _MAX_POINTS = 4096, 100000


def _list(values, sizes, what):
    """Node counts or sizes: a list of values or the command's list text ("8,16,64", "1KiB..1MiB"),
    sorted without repeats."""
    if isinstance(values, str):
        text = _arg("text", values, what)
        out = _ffi.new("uint64_t[]", 4096)
        n = _ffi.new("size_t *")
        rc = _lib.oc_parse_list(text.encode(), sizes, out, _MAX_LIST, n)
        if rc == -3 and not sizes or rc == -3 and ".." in text:
            raise InvalidArgument(rc, f"{what} {values!r}: more than {_MAX_LIST} values, or a "
                                      "value out of range")
        if rc:
            raise _ERRORS.get(rc, Error)(rc, f"{what} {values!r}: not a list (e.g. "
                                             + ("'1KiB..1MiB:*4')" if sizes else "'3,5..64')"))
        return [out[i] for i in range(n[0])]
    if not isinstance(values, (list, tuple, range)) and not hasattr(values, "tolist"):
        values = [values]
    values = list(values.tolist() if hasattr(values, "tolist") else values)
    if not values:
        raise InvalidArgument(-1, f"{what}: empty list")
    if len(values) > _MAX_LIST:
        raise InvalidArgument(-3, f"{what}: {len(values)} values, more than the {_MAX_LIST} a "
                                  "list takes (as the command's)")
    return sorted({_arg("size", v, what) if sizes else _arg("count", v, what, 1) for v in values})


class _Sweep:
    """An oc_sweep over node and size lists, its spec's memory kept with it."""

    def __init__(self, collective, nodes, sizes, network, algorithms, params, net_params, root,
                 data_check):
        self.nodes, self.sizes = nodes, sizes
        self.base = _Request(collective, None, 1, 0, network, params, net_params, root,
                             data_check)
        self.spec = _ffi.new("oc_sweep_spec *")
        self.spec.base = self.base.req[0]
        self.keep = []
        if algorithms is not None:
            self.keep = [_ffi.new("char[]", a.encode())
                         for a in _arg("names", algorithms, "algorithms")]
            arr = _ffi.new("const char *[]", self.keep)
            self.keep.append(arr)
            self.spec.algorithms = arr
            self.spec.nalgorithms = len(self.keep) - 1
        self.nodes_c = _ffi.new("uint64_t[]", nodes)
        self.sizes_c = _ffi.new("uint64_t[]", sizes)
        self.spec.nodes, self.spec.nnodes = self.nodes_c, len(nodes)
        self.spec.sizes, self.spec.nsizes = self.sizes_c, len(sizes)
        why = _ffi.new("char[]", _WHY)
        out = _ffi.new("oc_sweep **")
        rc = _lib.oc_sweep_new(self.spec, out, why, _WHY)
        if rc:
            _raise(rc, why)
        self.sweep = _ffi.gc(out[0], _lib.oc_sweep_free)
        points = _lib.oc_sweep_count(self.sweep)
        if points > _MAX_POINTS:
            raise InvalidArgument(-3, f"{points} points (algorithms x nodes x sizes), more than "
                                      f"the {_MAX_POINTS} points a sweep takes (as the command's)")

    def run(self, threads):
        threads = _arg("count", threads, "threads", 0, 256)
        _library_call(self.base.stop, _lib.oc_sweep_run, self.sweep, 0,
                      _lib.oc_sweep_count(self.sweep), threads)
        at = _ffi.new("size_t *")
        rc = _lib.oc_sweep_first_failure(self.sweep, at)
        if rc:
            p = _lib.oc_sweep_point_at(self.sweep, at[0])
            name = _ffi.string(_lib.oc_sweep_algorithm(self.sweep, p.algorithm)).decode()
            raise _ERRORS.get(rc, Error)(rc, f"{name} at N={p.nodes}, {p.bytes} bytes: "
                                             f"{_ffi.string(p.why).decode()}")

    def points(self):
        for i in range(_lib.oc_sweep_count(self.sweep)):
            yield _lib.oc_sweep_point_at(self.sweep, i)


def sweep(collective, nodes, sizes, network="ring", algorithms=None, params=None,
          net_params=None, root=0, data_check=True, threads=0):
    """Every algorithm (or those listed) at every node count and size, each a verified run, as a
    Table: one record per point, the fields of `run` (flat), or {algorithm, nodes, bytes, not_run}
    where the algorithm's restrictions exclude the point. nodes and sizes are lists or the
    command's list text ("3,5..64", "1KiB..1MiB:*4"); threads run points side by side (the result
    does not depend on them)."""
    s = _Sweep(collective, _list(nodes, 0, "nodes"), _list(sizes, 1, "sizes"), network,
               algorithms, params, net_params, root, data_check)
    s.run(threads)
    return _records(_json.loads(_ffi.string(p.json).decode()) for p in s.points()
                    if p.json != _ffi.NULL)


def tune(collective, nodes, sizes, network="ring", algorithms=None, params=None, net_params=None,
         root=0, threads=0):
    """Which algorithm wins where: every candidate at every (N, size), each verified, and the
    decision file `opticoll tune ... --json` prints (winners, times, crossovers), as a dict (a
    file's content: json.dump it to a file, and opticoll.run(algorithm="auto", decisions=PATH)
    picks from it)."""
    s = _Sweep(collective, _list(nodes, 0, "nodes"), _list(sizes, 1, "sizes"), network,
               algorithms, params, net_params, root, True)
    s.run(threads)
    text = _ffi.new("char **")
    rc = _lib.oc_tune_decisions(s.sweep, text)
    if rc:
        _raise(rc)
    return _json.loads(_take_text(text))


def perf(collective, algorithm, nodes, minbytes, maxbytes=None, stepfactor=None, network="ring",
         params=None, net_params=None, root=0, data_check=True, threads=0, stepbytes=None,
         iters=20, warmup_iters=5, check=None, blocking=0):
    """nccl-tests' report of one algorithm, its times from the network model (`opticoll perf
    --json`), as a Table: one record per size with nccl-tests' columns (size, count, type, redop,
    root, time_us, algbw_GBps, busbw_GBps), its two halves as nccl-tests prints them
    (out_of_place.time_us, .algbw_GBps, .busbw_GBps, .wrong; in_place.* the same: the model has no
    buffers, so both are the one verified run's time, and #wrong is 0 for a run that passed the
    verifier, None without a check), busbw_factor, bytes (opticoll's SIZE of the run), params (or
    not_run). The sizes are nccl-tests': minbytes, x stepfactor (2), ... (or + stepbytes) while
    at most maxbytes, each the bytes of the whole operation (all-gather: nodes blocks), as
    `opticoll perf -b -e -f -i`. iters, warmup_iters and blocking are nccl-tests' -n, -w and -z:
    the model's time is the same at every iteration, so they change no number and are reported
    as given; check is -c (0: no real-data run, #wrong None; default 1, or 0 with
    data_check=False). The Table's `summary` holds the rest of `perf --json`: the settings and
    nccl-tests' footer (out_of_bounds, avg_busbw_GBps: the mean bus bandwidth over both halves of
    every row that ran)."""
    coll = _collective(collective)
    lo = _arg("nccl-size", minbytes, "minbytes")
    hi = lo if maxbytes is None else _arg("nccl-size", maxbytes, "maxbytes")
    if stepfactor is not None and stepbytes is not None:
        raise InvalidArgument(-1, "stepfactor and stepbytes exclude each other (a factor or a "
                                  "step in bytes)")
    by_factor = stepbytes is None
    step = (_arg("count", 2 if stepfactor is None else stepfactor, "stepfactor", 2, 1024)
            if by_factor else _arg("nccl-size", stepbytes, "stepbytes"))
    if step < 1:
        raise InvalidArgument(-1, "stepbytes: at least 1 byte")
    n = _arg("count", nodes, "nodes", 1)
    iters = _arg("count", iters, "iters", 1, 1000000000)
    warmup = _arg("count", warmup_iters, "warmup_iters", 0, 1000000000)
    blocking = _arg("count", blocking, "blocking", 0, 1)
    data_check = _arg("flag", data_check, "data_check")
    check = (1 if data_check else 0) if check is None else _arg("count", check, "check", 0,
                                                                  1000000)
    if check and not data_check:
        raise InvalidArgument(-1, f"check {check} asks for the real-data run that "
                                  "data_check=False turns off: give one")
    if lo < 1 or hi < lo:
        raise InvalidArgument(-1, f"maxbytes {hi}: smaller than minbytes {lo}" if hi < lo
                              else "minbytes: at least 1 byte")
    wanted, size = [], lo
    while size <= hi:
        if len(wanted) == _MAX_LIST:
            raise InvalidArgument(-3, f"more than {_MAX_LIST} sizes from minbytes to maxbytes")
        wanted.append(size)
        size = size * step if by_factor else size + step
    sizes = sorted({b for b in (_lib.opy_perf_bytes(coll, n, w) for w in wanted) if b})
    if not sizes:
        raise InvalidArgument(-1, f"no size from minbytes to maxbytes holds one float per rank of "
                                  f"{collective} on {n} ranks")
    if network == "star" and not {"tau", "D"} <= set(net_params or {}):
        raise InvalidArgument(-1, "the star's times are in units of tau and D: give both in "
                                  "seconds (net_params={'tau': 1e-8, 'D': 1e-6})")
    s = _Sweep(collective, [n], sizes, network, [algorithm], params, net_params, root,
               check != 0)
    s.run(threads)
    rows, busbws = [], []
    size_c, count_c = _ffi.new("uint64_t *"), _ffi.new("uint64_t *")
    busbw, redop, root_c = _ffi.new("double *"), _ffi.new("const char **"), _ffi.new("int64_t *")
    for p in s.points():
        _lib.opy_perf_row(coll, p.nodes, p.bytes, s.base.req.root, size_c, count_c, busbw, redop,
                          root_c)
        ran = p.status == 0
        t = p.time_s if ran else None
        algbw = size_c[0] / t / 1e9 if ran and t > 0 else (0.0 if ran else None)
        half = {"time_us": t * 1e6 if ran else None, "algbw_GBps": algbw,
                "busbw_GBps": algbw * busbw[0] if algbw is not None else None,
                "wrong": (0 if check else None) if ran else None}
        row = Record(size=size_c[0], count=count_c[0], type="float",
                     redop=_ffi.string(redop[0]).decode(), root=root_c[0],
                     busbw_factor=busbw[0], time_us=half["time_us"], algbw_GBps=algbw,
                     busbw_GBps=half["busbw_GBps"], bytes=p.bytes)
        if ran:
            row["params"] = _ffi.string(p.params).decode()
            busbws += [half["busbw_GBps"]] * 2  # out-of-place and in-place: one model time
        else:
            row["not_run"] = _plain(_ffi.string(p.why).decode())
        for name in ("out_of_place", "in_place"):
            row.update({f"{name}.{k}": v for k, v in half.items()})
        rows.append(row)
    table = Table(rows)
    table.summary = {
        "collective": _ffi.string(_lib.oc_collective_name(coll)).decode(),
        "algorithm": _ffi.string(_lib.oc_sweep_algorithm(s.sweep, 0)).decode(),
        "network": network, "nodes": n, "type": "float",
        "busbw_factor": rows[0]["busbw_factor"], "time_source": "model", "minbytes": lo,
        "maxbytes": hi, ("step_factor" if by_factor else "step_bytes"): step, "iters": iters,
        "warmup_iters": warmup, "check": check, "blocking": blocking, "out_of_bounds": 0,
        "avg_busbw_GBps": sum(busbws) / len(busbws) if busbws else 0}
    return table


def reproduce(paper, wavelengths=None, nodes=None, sizes=None, network=None):
    """One seed paper's reproduction (`opticoll reproduce PAPER --json`) as a dict: "paper",
    "settings", "claims" (a Table: claim, source, unit, paper, opticoll, reason), "tables" (a list
    of Tables, one per printed table, a record per row keyed by its columns) and "figures" (each
    with its series). wavelengths, nodes, sizes and network replace the paper's settings where
    the paper takes them (opticoll.papers() lists the papers)."""
    name = _arg("text", paper, "paper")
    settings = _ffi.new("oc_reproduce_settings *")
    keep = []
    if wavelengths is not None:
        settings.wavelengths = _arg("count", wavelengths, "wavelengths", 1)
    if nodes is not None:
        settings.nodes = _arg("count", nodes, "nodes", 1)
    if sizes is not None:
        text = sizes if isinstance(sizes, str) else ",".join(
            str(_arg("size", v, "sizes")) for v in (sizes if isinstance(sizes, (list, tuple))
                                                    else [sizes]))
        keep.append(_ffi.new("char[]", _arg("text", text, "sizes").encode()))
        settings.sizes = keep[-1]
    if network is not None:
        keep.append(_ffi.new("char[]", _arg("text", network, "network").encode()))
        settings.network = keep[-1]
    stop = _Stop()
    settings.progress, settings.progress_ctx = stop.fn, stop.flag
    text = _ffi.new("char **")
    _library_call(stop, _lib.opy_reproduce_json, name.encode(), settings, text)
    doc = _json.loads(_take_text(text))
    doc["claims"] = Table(doc.get("claims", []))
    doc["tables"] = [Table(dict(zip(t["columns"], row)) for row in t["rows"])
                     for t in doc.get("tables", [])]
    return doc


def synth(collective, nodes, network="ring", size=0, net_params=None, chunks=0, time_limit=60,
          data_check=True, schedule=False):
    """The fewest steps of a collective on a small ring or star, found and proven with the z3
    solver (`opticoll synth --json`) as a flat Record: "optimal", "lower_bound_steps", "steps",
    "result.*" (the found schedule's run). schedule=True adds "schedule", the schedule file (a
    dict) when one was found. The solver's time_limit (seconds) bounds the call."""
    spec = _ffi.new("oc_synth_spec *")
    spec.collective = _collective(collective)
    net = _ffi.new("char[]", _arg("text", network, "network").encode())
    spec.network = net
    spec.nodes = _arg("count", nodes, "nodes", 1)
    spec.bytes = _arg("size", size, "size")
    kv = _Kv(net_params, "net_params")
    spec.net_params = kv.ptr
    spec.chunks = _arg("count", chunks, "chunks", 0, 1 << 20)
    spec.time_limit_s = _arg("number", time_limit, "time_limit", 0, 86400)
    spec.skip_data_check = not _arg("flag", data_check, "data_check")
    stop = _Stop()  # polled while the solver runs: Ctrl-C interrupts it (Z3_interrupt)
    spec.progress, spec.progress_ctx = stop.fn, stop.flag
    text, sched = _ffi.new("char **"), _ffi.new("char **")
    _library_call(stop, _lib.opy_synth_json, spec, text, sched)
    record = Record.of(_json.loads(_take_text(text)))
    if sched[0] != _ffi.NULL:
        body = _take_text(sched)
        if _arg("flag", schedule, "schedule"):
            record["schedule"] = _json.loads(body)
    return record


def train(model, nodes, network="ring", algorithm=None, params=None, net_params=None,
          models=None, data_check=True):
    """The gradient all-reduce of a DNN model's training (`opticoll train --json`) as a dict: the
    model's figures, "runs" (a Table, fastest first: algorithm, time_per_iteration_s,
    time_per_epoch_s, ...) and "not_run". models: a models file (default: the source tree's
    data/models.tsv)."""
    name = _arg("text", model, "model")
    request = _Request("allreduce", algorithm, nodes, 0, network, params, net_params, 0,
                       data_check)
    path = _ffi.new("char[]", _arg("text", str(models), "models").encode()) if models else _ffi.NULL
    text = _ffi.new("char **")
    _library_call(request.stop, _lib.opy_train_json, path, name.encode(), request.req, text)
    doc = _json.loads(_take_text(text))
    doc["runs"] = Table(doc.get("runs", []))
    return doc


def rack(servers=8, tiles=32, fibres=8, sipac_r=4, sipac_l=4, size="64MiB", seed=1, tenants=200,
         trace=None):
    """The multi-tenant rack (lumorph seed, section 3; `opticoll rack --json`) as a dict: tenants
    arrive asking for g GPUs and leave, and the same trace is replayed on three racks of servers x
    tiles GPUs (lumorph: any free tiles joined by circuits over `fibres` spare fibres per pair of
    servers; tpu: aligned power-of-two slices; sipac: aligned sub-BCubes of SiPAC(sipac_r,
    sipac_l)). "architectures" is a Table (placed, rejected and why, utilisation, rounding waste,
    idle and stranded GPUs, the mean all-reduce time of a `size` vector over the placed tenants,
    each run verified), "tenants" a Table (one record per tenant), beside "rack", "bytes" and
    "trace". The trace is `trace` (a file of lines 'TIME arrive ID GPUS' and 'TIME leave ID') or
    a random one of `tenants` tenants from `seed`. Ctrl-C stops it within a report, between
    two events of the replay or inside a tenant's all-reduce run (KeyboardInterrupt)."""
    shape = _ffi.new("oc_rack_shape *")
    shape.servers = _arg("count", servers, "servers", 1, _lib.OC_RACK_MAX_SERVERS)
    shape.tiles = _arg("count", tiles, "tiles", 1, _lib.OC_RACK_MAX_TILES)
    shape.fibres = _arg("count", fibres, "fibres", 0, _lib.OC_RACK_MAX_FIBRES)
    shape.sipac_r = _arg("count", sipac_r, "sipac_r", 2, 64)
    shape.sipac_l = _arg("count", sipac_l, "sipac_l", 1, 31)
    shape.bytes = _arg("size", size, "size")
    if shape.bytes == 0:
        raise InvalidArgument(-1, "size 0: each tenant's all-reduce needs at least 1 byte")
    seed = _arg("count", seed, "seed", 0, 2**64 - 1)
    tenants = _arg("count", tenants, "tenants", 1, _lib.OC_RACK_MAX_TENANTS)
    path = _ffi.NULL
    if trace is not None:
        import os
        path = _ffi.new("char[]", _arg("text", os.fspath(trace) if hasattr(trace, "__fspath__")
                                       else trace, "trace").encode())
    stop = _Stop()  # polled by the replay at every event and by each tenant's run
    shape.progress, shape.progress_ctx = stop.fn, stop.flag
    text = _ffi.new("char **")
    _library_call(stop, _lib.opy_rack_json, shape, path, seed, tenants, text)
    doc = _json.loads(_take_text(text))
    doc["architectures"] = Table(doc.get("architectures", []))
    doc["tenants"] = Table(doc.get("tenants", []))
    return doc


def rack_example(name="fig2a"):
    """`opticoll rack --example fig2a`: the lumorph seed's Fig. 2a allocation replayed (a small
    rack whose free chips are split over two servers, User 4 asking for 4 chips) as a dict:
    "example", "text" (the section the command prints: the paper's claim, the allocation, each
    architecture's outcome and why, every all-reduce a verified run) and "agrees" (True when the
    outcome is the paper's: Lumorph places User 4, the fixed slices do not)."""
    if _arg("text", name, "name") != "fig2a":
        raise UnknownName(-4, f"rack_example: unknown example {name!r} (there is fig2a)")
    text, agrees = _ffi.new("char **"), _ffi.new("int *")
    _library_call(_Stop(), _lib.opy_rack_fig2a, text, agrees)
    return {"example": name, "text": _take_text(text), "agrees": bool(agrees[0])}


def throughput(parameters, batch, nodes, tokens, peak_tflops, utilisation, buckets=1,
               model=None, data_check=True):
    """Training samples per second with Lumorph against Ring (the lumorph seed's section 4,
    `opticoll throughput --json`) as a dict; "sides" is a Table (Lumorph-2, Lumorph-4, Ring)."""
    spec = _ffi.new("oc_throughput_in *")
    keep = _ffi.new("char[]", _arg("text", model, "model").encode()) if model else _ffi.NULL
    spec.model = keep
    spec.parameters = _arg("count", parameters, "parameters", 1, 2**48)
    spec.batch = _arg("count", batch, "batch", 1, 10**12)
    spec.nodes = _arg("count", nodes, "nodes", 1)
    spec.buckets = _arg("count", buckets, "buckets", 1, 1000000)
    spec.tokens = _arg("count", tokens, "tokens", 1, 2**32)
    spec.peak_tflops = _arg("number", peak_tflops, "peak_tflops", 1e-3, 1e6)
    spec.utilisation = _arg("number", utilisation, "utilisation", 1e-3, 1)
    spec.skip_data_check = not _arg("flag", data_check, "data_check")
    stop = _Stop()  # each side's all-reduce run polls it: Ctrl-C stops a run of thousands of GPUs
    spec.progress, spec.progress_ctx = stop.fn, stop.flag
    text = _ffi.new("char **")
    _library_call(stop, _lib.opy_throughput_json, spec, text)
    doc = _json.loads(_take_text(text))
    doc["sides"] = Table(doc.get("sides", []))
    return doc


# The most ranks simgrid() runs under SMPI (the command's cap: ~13 GB of memory at 1024 ranks)
SIMGRID_MAX_NODES = _lib.OC_SIMGRID_MAX_NODES


def _last_line(text):
    lines = [l for l in (text or "").splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def _run_group(argv, cwd=None):
    """argv run to its end in a process group of its own, (returncode, stdout, stderr) as text.
    On Ctrl-C (or any exception) the whole group is killed (smpirun's ranks, smpicc's compilers)
    and waited for before the exception goes on: nothing runs on after the call."""
    import os
    import subprocess
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate()
    except BaseException:
        try:
            os.killpg(proc.pid, _signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        raise
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def _smpi_executable(build_dir):
    """The SMPI build of opticoll-mpi to run: OPTICOLL_SMPI_EXE as it is (as the command reads
    it) unless build_dir is given; else BUILD/simgrid/opticoll-mpi-smpi, BUILD being build_dir or
    the package's own build directory, made (or remade, when a source is newer) by the source
    tree's scripts/simgrid.sh --build-only, the script and binary `make simgrid` and the test
    fixture simgrid_build use: a minute or more of smpicc the first time, nothing after."""
    import os
    import shutil
    if build_dir is None and os.environ.get("OPTICOLL_SMPI_EXE"):
        exe = os.environ["OPTICOLL_SMPI_EXE"]
        how = "OPTICOLL_SMPI_EXE names it"
    else:
        build = _arg("text", os.fspath(build_dir) if hasattr(build_dir, "__fspath__") else
                     build_dir, "build_dir") if build_dir is not None else \
            _ffi.string(_lib.opy_build_dir()).decode()
        exe = os.path.join(build, "simgrid", "opticoll-mpi-smpi")
        script = os.path.join(_ffi.string(_lib.opy_source_dir()).decode(), "scripts", "simgrid.sh")
        how = f"scripts/simgrid.sh --build-only --build {build} builds it"
        if os.path.isfile(script):
            if not shutil.which("smpicc"):
                raise NotSupported(-5, "SimGrid's smpicc is not on the PATH, and the SMPI build "
                                       "of the executor needs it (Debian: apt-get install "
                                       "libsimgrid-dev)")
            rc, _, err = _run_group(["bash", script, "--build-only", "--build", build])
            if rc:
                raise IOFailure(-9, f"the SMPI build of the executor failed: {_last_line(err)}")
    if not os.access(exe, os.X_OK):
        raise IOFailure(-9, f"no SMPI build of opticoll-mpi at {exe} ({how})")
    return exe


def simgrid(collective, algorithm, nodes, size, params=None, net_params=None, root=0,
            network="fattree", data_check=True, build_dir=None):
    """`opticoll simgrid --json` as a flat Record: the schedule timed twice, by opticoll's
    `fattree` model (verified, mapped, timed: "model_s" and the run as "report.*") and for real
    under SimGrid's SMPI on the same fat-tree ("simgrid_s"; "ratio" = simgrid_s / model_s): the
    MPI executor built with smpicc runs it on `nodes` simulated ranks under smpirun, given the
    parameters the model's run used, and checks its result against MPI's own collective.
    SimGrid's platform is the model's settings (net_params moves them: bandwidth_gbps,
    router_delay_us, ...), plain alpha-beta as the command sets it (no SMPI factors, no
    cross-traffic, the host's CPU time not simulated): the time is deterministic.

    The SMPI build is OPTICOLL_SMPI_EXE, or BUILD/simgrid/opticoll-mpi-smpi, made when missing
    or stale by scripts/simgrid.sh (BUILD: build_dir, or the package's own build directory).
    Refused before any work: another network, more than SIMGRID_MAX_NODES (256) nodes, a block
    that is not whole floats (InvalidArgument); SimGrid not installed (NotSupported). The
    executor's result differing from MPI's is a VerificationError; smpirun failing an
    IOFailure. Ctrl-C stops it (the model's run through its progress, smpirun by killing it)."""
    import os
    import tempfile
    if _arg("text", network, "network") != "fattree":
        raise InvalidArgument(-1, f"network {network!r}: SimGrid runs the schedule on the "
                                  "fat-tree (network='fattree', the default)")
    n = _arg("count", nodes, "nodes", 1)
    if n > SIMGRID_MAX_NODES:
        raise InvalidArgument(-3, f"nodes {n}: at most {SIMGRID_MAX_NODES} ranks under SMPI "
                                  "(it needs about 13 GB of memory at 1024)")
    request = _Request(collective, algorithm, n, size, "fattree", params, net_params, root,
                       data_check)
    coll, nbytes = request.req.collective, request.req.bytes
    # the executor's --sizes is one block as MPI counts it (reduce-scatter: a rank's share of
    # the vector, where size is the whole vector), in whole floats, as the command checks
    block = nbytes // n if coll == _lib.OC_REDUCESCATTER else nbytes
    if block % 4 or (coll == _lib.OC_REDUCESCATTER and nbytes % n):
        raise InvalidArgument(-1, f"size {size!r}: the executor runs floats, so a block must be "
                                  "a whole number of 4 bytes (reduce-scatter: the vector / nodes)")
    import shutil
    smpirun = shutil.which("smpirun")
    if not smpirun:
        raise NotSupported(-5, "SimGrid is not installed: smpirun is not on the PATH (Debian: "
                               "apt-get install libsimgrid-dev)")
    # the model's run first: the library's refusals (an unknown algorithm, a parameter out of
    # range) come before a build of minutes
    platform, report, used = _ffi.new("char **"), _ffi.new("char **"), _ffi.new("char **")
    _library_call(request.stop, _lib.opy_simgrid_platform, request.req, platform, report, used)
    platform, report, used = _take_text(platform), _take_text(report), _take_text(used)
    exe = _smpi_executable(build_dir)
    doc = _json.loads(report)
    name = _ffi.string(request.algorithm).decode()
    with tempfile.TemporaryDirectory(prefix="opticoll-simgrid-") as d:
        with open(os.path.join(d, "fattree.xml"), "w") as f:
            f.write(platform)
        with open(os.path.join(d, "hosts"), "w") as f:
            f.write("".join(f"node-{v}\n" for v in range(n)))
        rc, out, err = _run_group(
            [smpirun, "-np", str(n), "-platform", os.path.join(d, "fattree.xml"), "-hostfile",
             os.path.join(d, "hosts"), "--cfg=smpi/lat-factor:0:1", "--cfg=smpi/bw-factor:0:1",
             "--cfg=network/crosstraffic:0", "--cfg=smpi/simulate-computation:no",
             "--log=root.thres:critical", exe, "--collectives",
             _ffi.string(_lib.oc_collective_name(coll)).decode(), "--algorithms",
             f"{name}:{used}" if used else name, "--sizes", str(block), "--root",
             str(request.req.root), "--repeats", "1", "--warmup", "0", "--json"], cwd=d)
    try:
        result = _json.loads(out)[0]
        check, sim_s = result["check"], float(result["opticoll_s"])
    except (ValueError, LookupError, TypeError):
        raise IOFailure(-9, "smpirun gave no result: "
                            + (_last_line(err) or f"exit {rc}, no message")) from None
    if check != "ok":
        raise VerificationError(-6, f"under SimGrid the executor's result differs from MPI's: "
                                    f"{check}")
    model_s = doc["time_s"]
    return Record.of({"collective": _ffi.string(_lib.oc_collective_name(coll)).decode(),
                      "algorithm": name, "nodes": n, "bytes": nbytes, "simgrid_s": sim_s,
                      "model_s": model_s, "ratio": sim_s / model_s, "report": doc})
