/*
 * formats.h — the file-formats room: schedules written to and read from files. schedule_json.c
 * writes and reads opticoll's own schedule JSON (oc_export_json, oc_verify_file, which hands MSCCL
 * XML to msccl_import.c); msccl_export.c writes MSCCL XML programs and msccl_import.c reads them;
 * chrome.c writes a checked run as a Chrome/Perfetto timeline, draw.c draws one as SVG (or
 * as a gnuplot script for a PNG, draw_gnuplot.c, on draw_layout.c's layout); chakra.c
 * writes Chakra traces, astra.c ASTRA-sim's configuration beside them, simgrid.c SimGrid's
 * platform of the fat-tree. A file read back goes through the same pipeline as a generated
 * schedule (src/run: verifier, then the network model), so a file is held to the same checks.
 */
#ifndef OC_FORMATS_H
#define OC_FORMATS_H

#include "report/report.h"
#include "run/pipeline.h"

/* The size cap of a streamed schedule file (export --format json and chrome): a quarter of the
 * memory budget, 1 GiB by default. Their size is known only as they are generated, so each
 * round or event is printed to a string and refused before a byte of it passes the cap;
 * oc__output_refuse says so in one line (OC_ETOOBIG, exit 2 in the CLI). */
uint64_t oc__output_cap(void);
int oc__output_refuse(const char *what, uint64_t done, const char *unit, char *why, size_t len);

/* A sink that counts an output's least size while the schedule is verified and mapped (before a
 * byte is written): per_transfer bytes a transfer, per_round a round, tail once at the end, and
 * refuses (oc__output_refuse, naming `what`) as soon as that passes the cap. Without it a file of
 * hours of verification met the cap only when the writing began. */
typedef struct oc__size_counter {
    oc__sink sink;
    const char *what;
    uint64_t per_transfer, per_round, tail;
    uint64_t least, rounds;
} oc__size_counter;
oc__size_counter oc__size_counter_of(const char *what, uint64_t per_transfer, uint64_t per_round,
                                     uint64_t tail);

/* oc_verify_file for MSCCL XML (src/formats/msccl_import.c); text is the file's content. */
int oc__verify_msccl(const char *path, const char *text, const char *network,
                     const oc_kv *net_params, oc_progress_fn progress, void *progress_ctx,
                     oc_report **out, char *why, size_t len);

/* oc_verify_file_progress with a watch on the checked run (NULL: none; draw.c's drawing). A watch
 * needs a network; an MSCCL XML file is refused with a watch (OC_ENOTSUP). */
typedef struct oc__watch oc__watch;
int oc__verify_file_watched(const char *path, const char *network, const oc_kv *net_params,
                            oc__watch *watch, oc_progress_fn progress, void *progress_ctx,
                            oc_report **out, char *why, size_t len);

/* A stored schedule that passed the pipeline (rep: its report) as a schedule file, in the format
 * oc_export_json writes (src/synth writes its optima with it). */
int oc__write_schedule_store(const oc__spec *s, const char *algorithm, const char *network,
                             const oc_kv *params, const oc__store *store, const oc_report *rep,
                             FILE *f, char *why, size_t len);

#endif
