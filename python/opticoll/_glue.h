/* _glue.h — what _glue.c gives the cffi module (_build.py reads its cdef from here). */
#ifndef OPY_GLUE_H
#define OPY_GLUE_H

#include "opticoll.h"

enum { OPY_EXPORT_JSON = 0, OPY_EXPORT_MSCCL = 1, OPY_EXPORT_CHROME = 2 };
enum { OPY_PERF_TYPE_SIZE = 4 }; /* perf's rows are of floats, as the command's */

/* The progress callback of every long call: OC_ECANCELED once *(int *)ctx, the flag Python sets
 * on Ctrl-C, is set; else 0. Called from the library's threads, never touches Python. */
int opy_progress(void *ctx, const char *what, uint64_t done, uint64_t total);
/* oc_export_msccl_for's text (runtime NULL: msccl-nccl). */
int opy_export_msccl(const oc_request *req, const char *runtime, int inplace, char **text,
                     char *why, size_t len);
/* Chakra's traces: *data holds, per rank in order, 8 bytes of length (little-endian) and the
 * rank's file; *n its bytes. */
int opy_export_bytes(const oc_request *req, char **data, size_t *n, char *why, size_t len);
/* nccl-tests' size, count, redop, root and bus-bandwidth factor of a run of c on n ranks with
 * SIZE bytes (src/report/perf.c, floats). Always 0. */
int opy_perf_row(oc_collective c, uint32_t n, uint64_t bytes, uint32_t root, uint64_t *size,
                 uint64_t *count, double *factor, const char **redop, int64_t *root_out);
/* opticoll's SIZE for nccl-tests' size on n ranks, in whole floats; 0 when none fits. */
uint64_t opy_perf_bytes(oc_collective c, uint32_t n, uint64_t size);
/* `reproduce PAPER --json`'s document (the printed tables are discarded). */
int opy_reproduce_json(const char *paper, const oc_reproduce_settings *settings, char **text,
                       char *why, size_t len);
/* `synth --json`'s object, and the found schedule's file in *schedule (NULL when none). */
int opy_synth_json(const oc_synth_spec *spec, char **text, char **schedule, char *why,
                   size_t len);
/* `train --json` (models_file NULL: the source tree's data/models.tsv). */
int opy_train_json(const char *models_file, const char *model, const oc_request *base,
                   char **text, char *why, size_t len);
/* `throughput --json`. */
int opy_throughput_json(const oc_throughput_in *in, char **text, char *why, size_t len);

/* The drawing of a request (file NULL) or of a schedule file (file, network, net_params as
 * oc_draw_file takes them) into *text: an SVG document or gnuplot's script (opt->format). */
int opy_draw(const oc_request *req, const char *file, const char *network, const oc_kv *net_params,
             const oc_draw_options *opt, char **text, size_t *n, char *why, size_t len);
/* oc_export_astra's files: *data holds, file after file, 8 bytes of the name's length, the name,
 * 8 bytes of the file's length (little-endian) and the file; *n its bytes. */
int opy_export_astra(const oc_request *req, char **data, size_t *n, char *why, size_t len);

/* `rack --json`: the trace read from trace_path (NULL: a random trace of `tenants` from `seed`)
 * replayed on the three racks of `shape`. */
int opy_rack_json(const oc_rack_shape *shape, const char *trace_path, uint64_t seed,
                  uint32_t tenants, char **text, char *why, size_t len);

/* For simgrid(): the request run on the fat-tree (oc_simgrid_platform) and SimGrid's platform of
 * its settings (*platform, the XML), the run's report (*report, its JSON) and the parameters the
 * run used as the executor's --algorithms takes them after "ALGO:" (*params, "k=v,k=v", maybe
 * empty). 0 or the library's error, with `why`; the three texts malloc'ed on success. */
int opy_simgrid_platform(const oc_request *req, char **platform, char **report, char **params,
                         char *why, size_t len);
/* The source tree the package was built from (scripts/simgrid.sh is there) and the build
 * directory of its own copy of the library (where scripts/simgrid.sh --build-only --build puts
 * simgrid/opticoll-mpi-smpi), as setup.py saw them. */
const char *opy_source_dir(void);
const char *opy_build_dir(void);

/* `rack --example fig2a`: the section oc_rack_fig2a prints (*text) and whether the outcome is
 * the paper's (*agrees). */
int opy_rack_fig2a(char **text, int *agrees, char *why, size_t len);

/* oc_report_write_json's text. 0 or an OC_ error; *text malloc'ed on success. */
int opy_report_json(const oc_report *r, char **text);
/* oc_export_json / _msccl / _chrome's text. 0 or the library's error, with `why`. */
int opy_export(int format, const oc_request *req, char **text, char *why, size_t len);
/* oc_compare + oc_compare_write_json's text: `compare --json`. 0 or the library's error, with
 * `why`. */
int opy_compare_json(const oc_request *req, const char *const *algorithms, size_t nalgorithms,
                     const oc_kv *pins, char **text, char *why, size_t len);

#endif
