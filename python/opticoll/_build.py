"""_build.py — the cffi builder of opticoll's Python module (setup.py's cffi_modules).

The module `opticoll._opticoll` is compiled in cffi's API mode: the C compiler checks every
declaration below against the library's own header (include/opticoll.h), so a field that moves in
oc_request cannot silently misalign. It links the static library built by setup.py (position
independent, in build-python/ or $OPTICOLL_BUILD_DIR) and the system libraries it needs.
"""
import os
import re
import shlex
import subprocess

from cffi import FFI

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_DIR = os.environ.get("OPTICOLL_BUILD_DIR") or os.path.join(ROOT, "build-python")


def pkg_config(*args):
    """pkg-config's answer as a list of words ([] when the package or pkg-config is missing)."""
    try:
        out = subprocess.run(["pkg-config", *args], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    return shlex.split(out.stdout)


# what the static library links against (libprotobuf-c: the Chakra export, when it was built)
LIBS = ["libcjson", "libxml-2.0", "z3"] + (["libprotobuf-c"] if pkg_config("--libs", "libprotobuf-c")
                                           else [])

ffibuilder = FFI()
def glue_declarations():
    """_glue.h's declarations, read from the header itself (one place): its comments and
    preprocessor lines dropped, which cffi's cdef does not take."""
    with open(os.path.join(ROOT, "python", "opticoll", "_glue.h"), encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))


ffibuilder.cdef(
    """
    typedef enum { OC_ALLGATHER, OC_REDUCESCATTER, OC_ALLREDUCE, OC_BROADCAST, OC_SCATTER,
                   OC_GATHER, OC_ALLTOALL, OC_GOSSIP, OC_COLLECTIVE_COUNT } oc_collective;
    typedef struct oc_kv oc_kv;
    typedef struct oc_report oc_report;
    typedef struct oc_request {
        oc_collective collective;
        const char *algorithm;
        const char *network;
        uint32_t nodes;
        uint64_t bytes;
        uint32_t root;
        const oc_kv *params;
        const oc_kv *net_params;
        int skip_data_check;
        int links;
        int objective;
        int explain;
        int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
        void *progress_ctx;
        ...;
    } oc_request;
    typedef struct oc_algorithm_info {
        const char *name;
        oc_collective collective;
        const char *networks;
        const char *summary;
        const char *restriction;
        const char *cost;
        const char *params;
        ...;
    } oc_algorithm_info;
    typedef struct oc_network_info {
        const char *name;
        const char *summary;
        const char *params;
        ...;
    } oc_network_info;
    typedef struct oc_sweep_spec {
        oc_request base;
        const char *const *algorithms;
        size_t nalgorithms;
        const uint64_t *nodes;
        size_t nnodes;
        const uint64_t *sizes;
        size_t nsizes;
        ...;
    } oc_sweep_spec;
    typedef struct oc_physical_bound_info {
        uint64_t steps;
        double time_s;
        const char *steps_argument;
        const char *time_argument;
        ...;
    } oc_physical_bound_info;
    typedef struct oc_reproduce_settings {
        uint32_t wavelengths;
        uint32_t nodes;
        const char *sizes;
        const char *network;
        int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
        void *progress_ctx;
        ...;
    } oc_reproduce_settings;
    typedef struct oc_synth_spec {
        oc_collective collective;
        const char *network;
        uint32_t nodes;
        uint64_t bytes;
        const oc_kv *net_params;
        uint32_t chunks;
        double time_limit_s;
        int skip_data_check;
        int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
        void *progress_ctx;
        ...;
    } oc_synth_spec;
    typedef struct oc_throughput_in {
        const char *model;
        uint64_t parameters;
        uint64_t batch;
        uint32_t nodes;
        uint32_t buckets;
        uint64_t tokens;
        double peak_tflops;
        double utilisation;
        int skip_data_check;
        int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
        void *progress_ctx;
        ...;
    } oc_throughput_in;
    typedef struct oc_draw_options {
        int64_t round;
        uint64_t max_panels;
        uint64_t max_elements;
        int format;
        const char *image;
        int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
        void *progress_ctx;
        ...;
    } oc_draw_options;
    typedef struct oc_rack_shape {
        uint32_t servers;
        uint32_t tiles;
        uint32_t fibres;
        uint32_t sipac_r, sipac_l;
        uint64_t bytes;
        int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
        void *progress_ctx;
        ...;
    } oc_rack_shape;
    #define OC_RACK_MAX_SERVERS ...
    #define OC_RACK_MAX_TILES ...
    #define OC_RACK_MAX_FIBRES ...
    #define OC_RACK_MAX_TENANTS ...
    typedef struct oc_sweep oc_sweep;
    typedef struct oc_sweep_point {
        int status;
        int err;
        size_t algorithm;
        uint32_t nodes;
        uint64_t bytes;
        uint64_t steps, rounds;
        double time_s;
        const char *time;
        const char *params;
        const char *why;
        const char *csv;
        const char *json;
        ...;
    } oc_sweep_point;

    #define OC_DRAW_DETAIL_NODES ...
    #define OC_SIMGRID_MAX_NODES ...
    const char *oc_strerror(int err);
    const char *oc_version(void);
    size_t oc_paper_count(void);
    const char *oc_paper_name(size_t i);
    int oc_collective_from_name(const char *name, oc_collective *out);
    const char *oc_collective_name(oc_collective c);
    int oc_parse_size(const char *text, uint64_t *out);
    int oc_parse_list(const char *text, int sizes, uint64_t *out, size_t max, size_t *n);

    size_t oc_algorithm_count(void);
    const oc_algorithm_info *oc_algorithm_at(size_t i);
    int oc_algorithm_takes(const oc_algorithm_info *a, const char *key);
    int oc_algorithm_runs_on(const oc_algorithm_info *a, const char *network);
    size_t oc_network_count(void);
    const oc_network_info *oc_network_at(size_t i);

    oc_kv *oc_kv_new(void);
    void oc_kv_free(oc_kv *kv);
    int oc_kv_set(oc_kv *kv, const char *key, const char *value);

    int oc_run(const oc_request *req, oc_report **out, char *why, size_t whylen);
    int oc_physical_bound(const oc_request *req, oc_physical_bound_info *out, char *why,
                          size_t whylen);
    void oc_report_free(oc_report *r);
    typedef struct oc_settings oc_settings;
    int oc_verify_file_progress(const oc_settings *settings, const char *path, const char *network,
                                const oc_kv *net_params,
                                int (*progress)(void *, const char *, uint64_t, uint64_t),
                                void *progress_ctx, oc_report **out, char *why, size_t whylen);

    int oc_sweep_new(const oc_sweep_spec *spec, oc_sweep **out, char *why, size_t whylen);
    void oc_sweep_free(oc_sweep *s);
    size_t oc_sweep_count(const oc_sweep *s);
    int oc_sweep_run(oc_sweep *s, size_t lo, size_t hi, unsigned threads, char *why, size_t whylen);
    int oc_sweep_first_failure(const oc_sweep *s, size_t *at);
    const oc_sweep_point *oc_sweep_point_at(const oc_sweep *s, size_t i);
    const char *oc_sweep_algorithm(const oc_sweep *s, size_t k);
    int oc_tune_decisions(const oc_sweep *s, char **text);
    typedef struct oc_tune_auto {
        const char *algorithm;
        char *note;
        ...;
    } oc_tune_auto;
    int oc_tune_auto_decided(const char *path, const char *label, const oc_request *req,
                             oc_tune_auto *out, char *why, size_t whylen);
    int oc_tune_auto_sweep(const oc_request *req, oc_sweep **out, char *why, size_t whylen);
    int oc_tune_auto_chosen(const oc_sweep *s, oc_tune_auto *out, char *why, size_t whylen);
    void oc_tune_auto_free(oc_tune_auto *a);

    void free(void *p);
    """
    + glue_declarations()
)

ffibuilder.set_source(
    "opticoll._opticoll",
    '#include <stdlib.h>\n#include "_glue.h"\n',
    sources=["python/opticoll/_glue.c"],  # relative: setuptools refuses absolute paths
    # the public headers only: the glue writes nccl-tests' rows with the library's own perf.c
    # (opticoll_studies.h's oc_perf_*), as the command does
    include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "python", "opticoll")],
    define_macros=[("OPY_DATA_DIR", '"%s"' % os.path.join(ROOT, "data")),
                   ("OPY_SOURCE_DIR", '"%s"' % ROOT), ("OPY_BUILD_DIR", '"%s"' % BUILD_DIR)],
    extra_objects=[os.path.join(BUILD_DIR, "libopticoll.a")],
    extra_compile_args=pkg_config("--cflags", *LIBS),
    extra_link_args=pkg_config("--libs", *LIBS) + ["-lpthread", "-lm"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
