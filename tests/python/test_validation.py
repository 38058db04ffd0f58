"""The Python package's own checks of what it hands the library (issue 27, "lax parsing").

Each case was taken before: a NUL inside text cut it in the library ("1\\x00MiB" ran as 1 byte,
{"k\\x00": 1} as k), True passed for 1 wavelength, tune ran past the command's limits (4097 sizes,
5000 node counts, 2^32 - 1 threads), and a wrong type surfaced as AttributeError,
UnicodeEncodeError or a string taken letter by letter instead of a typed opticoll.Error. (A str
for a list of names is the comma-separated form, and one count for a list is a list of one: both
documented; a wrong type is InvalidType, which is also a TypeError.)
"""
import pytest

import opticoll


@pytest.mark.parametrize("call,error,words", [
    (lambda: opticoll.run("allreduce", "ring", 4, "1\x00MiB"), opticoll.InvalidArgument, "NUL"),
    (lambda: opticoll.run("allgather", "optree", 8, 1, params={"k\x00": 1}),
     opticoll.InvalidArgument, "NUL"),
    (lambda: opticoll.run("allgather", "optree", 8, 1, params={"k": "2\x00"}),
     opticoll.InvalidArgument, "NUL"),
    (lambda: opticoll.run("allgather", "ring", 8, 1, net_params={"wavelengths": True}),
     opticoll.InvalidType, "not a bool"),
    (lambda: opticoll.run("allgather", "ring", 8, 1, net_params={"wavelengths": [8]}),
     opticoll.InvalidType, "expected a number or a str"),
    (lambda: opticoll.run("allgather", "ring", 8, 1, params=[("k", 2)]),
     opticoll.InvalidType, "expected a dict"),
    (lambda: opticoll.run("allgather\x00evil", "ring", 8, 1), opticoll.InvalidArgument, "NUL"),
    (lambda: opticoll.run("allgather", "ring\x00x", 8, 1), opticoll.InvalidArgument, "NUL"),
    (lambda: opticoll.run("allgather", "ring", 8, 1, network="ring\x00x"),
     opticoll.InvalidArgument, "NUL"),
    (lambda: opticoll.verify("/tmp/x\x00.json"), opticoll.InvalidArgument, "NUL"),
    # a lone surrogate (what os.fsdecode makes of a byte that is no UTF-8) raised
    # UnicodeEncodeError from str.encode
    (lambda: opticoll.run("all\udc80", "ring", 4, 1024), opticoll.InvalidArgument,
     "lone surrogate"),
    (lambda: opticoll.run("allgather", "ring", 8, 1, net_params={"wavelengths": "\ud800"}),
     opticoll.InvalidArgument, "lone surrogate"),
    (lambda: opticoll.run("allgather", "optree", 8, 1, params={"k\udfff": 2}),
     opticoll.InvalidArgument, "lone surrogate"),
    (lambda: opticoll.verify("/tmp/x\udc80.json"), opticoll.InvalidArgument, "lone surrogate"),
    (lambda: opticoll.compare("allgather", 8, 1, algorithms=5), opticoll.InvalidType,
     "a list of names"),
    (lambda: opticoll.tune("allgather", [4], [1024], algorithms=5),
     opticoll.InvalidType, "a list of names"),
    (lambda: opticoll.tune("allgather", [4], list(range(1, 4098))), opticoll.InvalidArgument,
     "more than the 4096"),
    (lambda: opticoll.tune("allgather", list(range(1, 5001)), [1024]), opticoll.InvalidArgument,
     "more than the 4096"),
    (lambda: opticoll.tune("allgather", "1..5000:+1", [1024]), opticoll.InvalidArgument,
     "more than 4096"),
    (lambda: opticoll.tune("allgather", list(range(1, 4000)), list(range(1, 40)),
                           algorithms=["ring"]), opticoll.InvalidArgument, "100000 points"),
    (lambda: opticoll.tune("allgather", [4], [1024], threads=2**32 - 1),
     opticoll.InvalidArgument, "0..256"),
    (lambda: opticoll.tune("allgather", [], [1024]), opticoll.InvalidArgument, "empty"),
])
def test_refused_with_a_typed_error(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert words in e.value.reason and "\n" not in e.value.reason


def test_what_is_still_taken():
    # numbers and text for parameters, a tuple of names, threads within the command's range
    r = opticoll.run("allgather", "ring", 8, "1KiB", net_params={"wavelengths": 8})
    assert r["verified"]
    assert opticoll.run("allgather", "optree", 8, 1, params={"k": "2"})["params.k"] == 2
    d = opticoll.tune("allgather", [4, 5], ["1KiB"], algorithms=("ring", "ne"), threads=256)
    assert len(d["points"]) == 2
