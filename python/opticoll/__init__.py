"""opticoll — collective communication schedules on optical interconnects, from Python.

The same library as the `opticoll` command, called in-process through cffi. Every function returns
plain Python data with the fields the command prints with --json, and raises an `opticoll.Error`
(a subclass per kind of failure) with the library's one-line reason where the command would print
that line and exit non-zero.

    >>> import opticoll
    >>> r = opticoll.run("allreduce", "ring", nodes=8, size="4MiB", network="switch")
    >>> r["verified"], r["steps"]
    (True, 14)

Functions: run, compare, export, verify, tune, algorithms, networks. Sizes are bytes (int) or the
command's spellings ("4MiB", "1GiB"); parameters are dicts ({"k": 6}); values are passed as text,
as `-p k=6` would pass them. Every schedule is verified (semantic verifier and the network model's
resource check) before a result is returned.
"""
import json as _json

from ._opticoll import ffi as _ffi
from ._opticoll import lib as _lib

__all__ = ["run", "compare", "export", "verify", "tune", "algorithms", "networks", "Error",
           "InvalidArgument", "UnknownName", "NotSupported", "TooBig", "VerificationError",
           "ResourceConflict", "ParseError", "OutOfMemory", "IOFailure"]

_WHY = 2048  # bytes for the library's reason, as the command gives it


class Error(Exception):
    """A failure of the library: `code` is the OC_ error code (negative), `kind` its name
    (oc_strerror), `reason` the one-line explanation the command would print."""

    def __init__(self, code, reason):
        self.code = code
        self.kind = _ffi.string(_lib.oc_strerror(code)).decode()
        self.reason = reason or self.kind
        super().__init__(self.reason)


class InvalidArgument(Error, ValueError):
    """OC_EINVAL / OC_ERANGE: a value the library refuses."""


class UnknownName(InvalidArgument):
    """OC_ENOENT: an unknown collective, algorithm, network or parameter."""


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


_ERRORS = {-1: InvalidArgument, -2: OutOfMemory, -3: InvalidArgument, -4: UnknownName,
           -5: NotSupported, -6: VerificationError, -7: ResourceConflict, -8: ParseError,
           -9: IOFailure, -10: TooBig}


def _raise(code, why=None):
    reason = _ffi.string(why).decode(errors="replace") if why is not None else ""
    raise _ERRORS.get(code, Error)(code, reason)


def _take_text(ptr):
    """The library's malloc'ed text as str; frees it."""
    try:
        return _ffi.string(ptr[0]).decode()
    finally:
        _lib.free(ptr[0])


def _c_text(value, what):
    """`value` as the bytes of a C string: text with a NUL in it would be cut there by the library
    ("1\\x00MiB" read as 1 byte, a key "k\\x00" as k), and text UTF-8 cannot encode (a lone
    surrogate) has no bytes at all; both are an InvalidArgument naming `what`, not a cut value or
    a UnicodeEncodeError."""
    text = str(value)
    if "\x00" in text:
        raise InvalidArgument(-1, f"{what} {text!r}: contains a NUL character")
    try:
        return text.encode()
    except UnicodeEncodeError:
        raise InvalidArgument(-1, f"{what} {text!r}: not encodable as UTF-8") from None


def _text(value, what):
    """A parameter's value as the command-line text `-p k=v` would give. A bool is refused: True
    is no number of wavelengths, and "1" would pass for it silently."""
    if isinstance(value, bool):
        raise InvalidArgument(-1, f"{what}={value!r}: a number or text, not a bool")
    if not isinstance(value, (int, float, str)):
        raise InvalidArgument(-1, f"{what}={value!r}: a number or text")
    return _c_text(value, what)


class _Kv:
    """An oc_kv built from a dict, freed with the object (the library copies nothing it keeps)."""

    def __init__(self, pairs):
        self.ptr = _ffi.NULL
        if pairs is not None and not isinstance(pairs, dict):
            raise InvalidArgument(-1, f"parameters {pairs!r}: expected a dict such as {{'k': 6}}")
        if pairs:
            self.ptr = _ffi.gc(_lib.oc_kv_new(), _lib.oc_kv_free)
            if self.ptr == _ffi.NULL:
                raise OutOfMemory(-2, "out of memory")
            for key, value in pairs.items():
                rc = _lib.oc_kv_set(self.ptr, _c_text(key, "parameter"), _text(value, key))
                if rc:
                    _raise(rc, _ffi.new("char[]", f"parameter {key}={value}".encode()))


def _collective(name):
    out = _ffi.new("oc_collective *")
    if _lib.oc_collective_from_name(_c_text(name, "collective"), out):
        raise UnknownName(-4, f"unknown collective '{name}' (see opticoll.algorithms())")
    return out[0]


def _size(size, what="size"):
    if isinstance(size, bool) or not isinstance(size, (int, str)):
        raise InvalidArgument(-1, f"{what} {size!r}: expected bytes (int) or e.g. '4MiB'")
    if isinstance(size, int):
        if size < 0:
            raise InvalidArgument(-3, f"{what} {size}: negative")
        size = str(size)
    out = _ffi.new("uint64_t *")
    rc = _lib.oc_parse_size(_c_text(size, what), out)
    if rc == -3:
        raise InvalidArgument(rc, f"{what} {size}: larger than the 1 PiB limit")
    if rc:
        raise ParseError(rc, f"{what} {size}: not a size (use e.g. 4096, 4KiB, 4MiB, 1GiB, 4MB)")
    return out[0]


def _whole(value, what, low=0, high=2**32 - 1):
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(-1, f"{what} {value!r}: not a whole number")
    if not low <= value <= high:
        raise InvalidArgument(-3, f"{what} {value}: out of range {low}..{high}")
    return value


class _Request:
    """An oc_request and everything its pointers reach, alive as long as this object."""

    def __init__(self, collective, algorithm, nodes, size, network, params, net_params, root,
                 data_check=True, objective="time", links=False, explain=False):
        self.req = _ffi.new("oc_request *")
        self.req.collective = _collective(collective)
        self.algorithm = (_ffi.new("char[]", _c_text(algorithm, "algorithm")) if algorithm
                          else _ffi.NULL)
        self.network = _ffi.new("char[]", _c_text(network or "ring", "network"))
        self.req.algorithm = self.algorithm
        self.req.network = self.network
        self.req.nodes = _whole(nodes, "nodes", 1)
        self.req.bytes = _size(size)
        self.req.root = _whole(root, "root")
        self.params = _Kv(params)
        self.net_params = _Kv(net_params)
        self.req.params = self.params.ptr
        self.req.net_params = self.net_params.ptr
        self.req.data_check = 1 if data_check else 0
        self.req.links = 1 if links else 0
        self.req.explain = 1 if explain else 0
        if objective not in ("time", "steps"):
            raise InvalidArgument(-1, f"objective {objective!r}: expected 'time' or 'steps'")
        self.req.objective = 0 if objective == "time" else 1


def _report_dict(report):
    text = _ffi.new("char **")
    rc = _lib.opy_report_json(report, text)
    if rc:
        _raise(rc)
    return _json.loads(_take_text(text))


def _report_or_raise(rc, out, why):
    """The report a library call left in out[0], as a dict (and freed); its error raised."""
    if rc:
        _raise(rc, why)
    try:
        return _report_dict(out[0])
    finally:
        _lib.oc_report_free(out[0])


def run(collective, algorithm, nodes, size, network="ring", params=None, net_params=None, root=0,
        data_check=True, objective="time", links=False, explain=False):
    """Generates, verifies and costs one schedule: `opticoll run ... --json` as a dict.

    algorithm "auto" (with no parameters pinned) searches every algorithm of the collective;
    params pins the algorithm's parameters ({"k": 6}); net_params sets the network's
    ({"wavelengths": 64}); objective is "time" or "steps" for parameter searches."""
    request = _Request(collective, algorithm, nodes, size, network, params, net_params, root,
                       data_check, objective, links, explain)
    why = _ffi.new("char[]", _WHY)
    out = _ffi.new("oc_report **")
    return _report_or_raise(_lib.oc_run(request.req, out, why, _WHY), out, why)


def physical_bound(collective, nodes, size, network="ring", net_params=None, root=0):
    """The physical bound (oc_physical_bound): the fewest steps and least time EVERY schedule the
    network model accepts needs for the collective on `nodes` with `size`, whatever the algorithm,
    as {"steps", "time_s", "argument", "steps_argument", "time_argument"} — the object `run
    --json` prints as "physical_bound" (each run's "to_physical_bound_ratio" is its time over
    time_s). Not the run's "steps_lower_bound", which bounds one schedule on the model."""
    request = _Request(collective, None, nodes, size, network, None, net_params, root, False)
    why = _ffi.new("char[]", _WHY)
    out = _ffi.new("oc_physical_bound_info *")
    rc = _lib.oc_physical_bound(request.req, out, why, _WHY)
    if rc:
        _raise(rc, why)
    steps_arg = _ffi.string(out.steps_argument).decode()
    time_arg = _ffi.string(out.time_argument).decode()
    return {"steps": out.steps, "time_s": out.time_s,
            "argument": f"steps: {steps_arg}; time: {time_arg}",
            "steps_argument": steps_arg, "time_argument": time_arg}


def algorithms(collective=None, network=None):
    """The registry: one dict per algorithm (name, collective, networks, summary, restriction,
    cost, params), optionally only a collective's and those that run on a network."""
    coll = _collective(collective) if collective is not None else None
    out = []
    for i in range(_lib.oc_algorithm_count()):
        a = _lib.oc_algorithm_at(i)
        if coll is not None and a.collective != coll:
            continue
        if network is not None and not _lib.oc_algorithm_runs_on(a, _c_text(network, "network")):
            continue
        entry = {"name": _ffi.string(a.name).decode()}
        entry["collective"] = ["allgather", "reducescatter", "allreduce", "broadcast", "scatter",
                               "gather", "alltoall", "gossip"][a.collective]
        for field in ("networks", "summary", "restriction", "cost", "params"):
            entry[field] = _ffi.string(getattr(a, field)).decode()
        out.append(entry)
    return out


_registry = algorithms  # for tune, whose `algorithms` parameter hides the function


def networks():
    """The network models' names."""
    return [_ffi.string(_lib.oc_network_at(i).name).decode() for i in range(_lib.oc_network_count())]


def compare(collective, nodes, size, network="ring", algorithms=None, params=None,
            net_params=None, root=0, data_check=True):
    """Every algorithm of the collective (or those `algorithms` lists), each verified:
    `opticoll compare ... --json` as a list, from the same library call (oc_compare). Runs come
    first, in registry (or list) order, then {"algorithm": NAME, "not_run": REASON} for those that
    do not run on the network or whose restrictions exclude these parameters. `algorithms` names
    algorithms of the collective that run on the network, each once. params pins KEY for every
    compared algorithm that takes it, or "ALGO.KEY" for ALGO alone (which wins); a key no compared
    algorithm takes is an UnknownName error, with the command's line."""
    request = _Request(collective, None, nodes, size, network, None, net_params, root, data_check)
    pins = _Kv(params)
    names, count = _ffi.NULL, 0
    if algorithms is not None:
        keep = [_ffi.new("char[]", _c_text(a, "algorithm")) for a in _names(algorithms)]
        names, count = _ffi.new("const char *[]", keep), len(keep)
    why = _ffi.new("char[]", _WHY)
    text = _ffi.new("char **")
    rc = _lib.opy_compare_json(request.req, names, count, pins.ptr, text, why, _WHY)
    if rc:
        _raise(rc, why)
    return _json.loads(_take_text(text))


_FORMATS = {"json": 0, "msccl": 1, "chrome": 2}


def export(collective, algorithm, nodes, size, format="json", network="ring", params=None,
           net_params=None, root=0):
    """The verified schedule in a file format: "json" (opticoll's schedule, as a dict), "chrome"
    (the Chrome/Perfetto timeline, as a dict) or "msccl" (MSCCL's XML, as text)."""
    if format not in _FORMATS:
        raise InvalidArgument(-1, f"format {format!r}: expected json, msccl or chrome")
    request = _Request(collective, algorithm, nodes, size, network, params, net_params, root)
    why = _ffi.new("char[]", _WHY)
    text = _ffi.new("char **")
    rc = _lib.opy_export(_FORMATS[format], request.req, text, why, _WHY)
    if rc:
        _raise(rc, why)
    body = _take_text(text)
    return body if format == "msccl" else _json.loads(body)


def verify(path, network=None, net_params=None):
    """Reads a schedule file (opticoll's JSON or MSCCL XML), verifies it and, when the file or
    `network` names a network, maps it: `opticoll verify FILE --json` as a dict."""
    kv = _Kv(net_params)
    why = _ffi.new("char[]", _WHY)
    out = _ffi.new("oc_report **")
    net = _ffi.new("char[]", _c_text(network, "network")) if network else _ffi.NULL
    rc = _lib.oc_verify_file(_c_text(path, "path"), net, kv.ptr, out, why, _WHY)
    return _report_or_raise(rc, out, why)


# The command's limits on tune and sweep (tools/points.h, tools/scaleout.c): values per list,
# points (algorithms x node counts x sizes) and threads (-j).
_MAX_LIST, _MAX_POINTS, _MAX_THREADS = 4096, 100000, 1024


def _names(values):
    """A list of algorithm names: a list or tuple of them (a str would be taken letter by letter)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise InvalidArgument(-1, f"algorithms {values!r}: expected a list of names, e.g. "
                                  "['ring', 'rd']")
    return values


def _list(values, sizes, what):
    """Node counts or sizes: a list of values or the command's list text ("8,16,64", "1KiB..1MiB")."""
    if isinstance(values, str):
        out = _ffi.new("uint64_t[]", _MAX_LIST)
        n = _ffi.new("size_t *")
        rc = _lib.oc_parse_list(_c_text(values, what), sizes, out, _MAX_LIST, n)
        if rc == -3:
            raise InvalidArgument(rc, f"{what} {values}: more than {_MAX_LIST} values")
        if rc:
            _raise(rc, _ffi.new("char[]", f"{what} {values}: not a list".encode()))
        return [out[i] for i in range(n[0])]
    if not isinstance(values, (list, tuple, set, frozenset, range)):
        raise InvalidArgument(-1, f"{what} {values!r}: expected a list or the command's list text")
    out = sorted({_size(v, what) if sizes else _whole(v, what, 1) for v in values})
    if not out:
        raise InvalidArgument(-1, f"{what}: an empty list")
    if len(out) > _MAX_LIST:
        raise InvalidArgument(-3, f"{what}: {len(out)} values, more than the {_MAX_LIST} the "
                                  "command takes")
    return out


def tune(collective, nodes, sizes, network="ring", algorithms=None, params=None, net_params=None,
         root=0, threads=0):
    """Which algorithm wins where: every candidate at every (N, size), each verified, and the
    decision file `opticoll tune ... --json` prints (winners, times, crossovers), as a dict."""
    node_list, size_list = _list(nodes, 0, "nodes"), _list(sizes, 1, "sizes")
    threads = _whole(threads, "threads", 0, _MAX_THREADS)  # 0: the online CPUs, as without -j
    if algorithms is not None:
        algorithms = _names(algorithms)
    every = len(algorithms) if algorithms is not None else sum(
        1 for a in _registry(collective, network))
    if every * len(node_list) * len(size_list) > _MAX_POINTS:
        raise InvalidArgument(-3, f"tune: more than {_MAX_POINTS} points (algorithms x nodes x "
                                  "sizes), as the command refuses")
    base = _Request(collective, None, 1, 0, network, params, net_params, root)
    spec = _ffi.new("oc_sweep_spec *")
    spec.base = base.req[0]
    keep = []
    if algorithms is not None:
        keep = [_ffi.new("char[]", _c_text(a, "algorithm")) for a in algorithms]
        arr = _ffi.new("const char *[]", keep)
        keep.append(arr)
        spec.algorithms = arr
        spec.nalgorithms = len(algorithms)
    nodes_c = _ffi.new("uint64_t[]", node_list)
    sizes_c = _ffi.new("uint64_t[]", size_list)
    spec.nodes, spec.nnodes = nodes_c, len(node_list)
    spec.sizes, spec.nsizes = sizes_c, len(size_list)
    why = _ffi.new("char[]", _WHY)
    out = _ffi.new("oc_sweep **")
    rc = _lib.oc_sweep_new(spec, out, why, _WHY)
    if rc:
        _raise(rc, why)
    sweep = _ffi.gc(out[0], _lib.oc_sweep_free)
    rc = _lib.oc_sweep_run(sweep, 0, _lib.oc_sweep_count(sweep), threads, why, _WHY)
    if rc:
        _raise(rc, why)
    at = _ffi.new("size_t *")
    rc = _lib.oc_sweep_first_failure(sweep, at)
    if rc:
        p = _lib.oc_sweep_point_at(sweep, at[0])
        raise _ERRORS.get(rc, Error)(rc, f"{_ffi.string(_lib.oc_sweep_algorithm(sweep, p.algorithm)).decode()} "
                                         f"at N={p.nodes}, {p.bytes} bytes: {_ffi.string(p.why).decode()}")
    text = _ffi.new("char **")
    rc = _lib.oc_tune_decisions(sweep, text)
    if rc:
        _raise(rc)
    return _json.loads(_take_text(text))
