/*
 * cmd_simgrid.c — `opticoll simgrid`: one schedule timed twice, by opticoll's `fattree` model and
 * by SimGrid's SMPI on the same fat-tree, both times printed side by side.
 *
 * The library runs the request on the fat-tree and writes SimGrid's platform of that model's
 * settings (src/formats/simgrid.c). The schedule then runs for real under smpirun: the MPI
 * executor and its checker (opticoll-mpi) built with SimGrid's smpicc, the binary
 * BUILD/simgrid/opticoll-mpi-smpi that `make simgrid` and scripts/simgrid.sh build (or the one
 * OPTICOLL_SMPI_EXE names), given the algorithm with the parameters the fat-tree run chose
 * (`--algorithms ring:k=v`), so that both time the same schedule; the executor checks the result
 * against MPI's own collective. SimGrid is set up as plain alpha-beta, as scripts/simgrid.sh
 * does: no SMPI latency or bandwidth factors, no cross-traffic, the host's own CPU time not
 * simulated, so the time is deterministic. smpirun is started directly (posix_spawn, no shell),
 * its output kept in a temporary directory with the platform and the host file, removed at the
 * end; SIGINT ends it with the tool (output.h's guard).
 *
 * Budgets: SMPI at 1024 ranks needs about 13 GB here (PLATFORM.md), so N is capped at
 * OC_SIMGRID_MAX_NODES (opticoll_core.h, shared with the Python package's simgrid()) before
 * anything starts. Exit codes: 2 bad input (another network, N over the cap), 1 the schedule
 * failed a check (opticoll's, or the executor's against MPI), 3 the environment (no smpirun, no
 * SMPI build, SimGrid failing).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "output.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef OC_SMPI_EXE
#define OC_SMPI_EXE "opticoll-mpi-smpi"
#endif
#ifndef OC_SMPIRUN
#define OC_SMPIRUN "smpirun"
#endif

static const char *const simgrid_help =
    "usage: opticoll simgrid -c COLL -a ALGO -n N -s SIZE [-p KEY=VALUE]... [--net KEY=VALUE]...\n"
    "                        [--json]\n\n"
    "Runs the schedule on opticoll's fat-tree model (verified, mapped, timed), then for real\n"
    "under SimGrid's SMPI on the same fat-tree (the MPI executor built with smpicc, the\n"
    "result checked against MPI's own collective), and prints both times. SimGrid's platform\n"
    "is the model's: FAT_TREE, the model's nodes a leaf, leaves, spines, bandwidth_gbps a cable\n"
    "and router_delay_us as each cable's latency; plain alpha-beta (no SMPI factors, no\n"
    "cross-traffic). The SMPI build is BUILD/simgrid/opticoll-mpi-smpi (`make simgrid`, or\n"
    "scripts/simgrid.sh --build-only), or the file OPTICOLL_SMPI_EXE names. At most 256 nodes.\n\n";
static const char *const simgrid_options =
    "  -t, --network fattree   the network (the fat-tree, the default: the only one here)\n"
    "      --net KEY=VALUE     a fat-tree parameter (ports, leaf_down, bandwidth_gbps,\n"
    "                          router_delay_us, packet_bytes, spine_ports)\n"
    "      --json              one JSON object: the request, simgrid_s, model_s, ratio and the\n"
    "                          model's run report\n\n"
    "examples (after `make simgrid`):\n"
    "  opticoll simgrid -c allreduce -a ring -n 16 -s 1MiB\n"
    "  opticoll simgrid -c allgather -a rd -n 64 -s 64KiB --net bandwidth_gbps=100 --json\n";

/* A file of the scratch directory: dir/name. */
static char *in_dir(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Runs argv with stdout into `out` and stderr into `err` (paths); the exit status, or -1 when it
 * could not be run or was killed. */
static int run_child(char *const argv[], const char *out, const char *err) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) return -1;
    int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    rc = rc ? -1 : out_spawn_wait(argv[0], argv, &fa);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* The whole of a small file, NUL-terminated (NULL when unreadable). */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char tmp[4096];
    while ((got = fread(tmp, 1, sizeof tmp, f)) > 0) {
        if (len + got + 1 > cap) {
            size_t ncap = (len + got + 1) * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        memcpy(buf + len, tmp, got);
        len += got;
    }
    fclose(f);
    if (!buf && !(buf = calloc(1, 1))) return NULL;
    buf[len] = 0;
    return buf;
}

/* The last non-empty line of text, for a message. */
static void last_line(const char *text, char *out, size_t len) {
    *out = 0;
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 1) snprintf(out, len, "%.*s", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

/* The executor's verdict and time of the one case, from opticoll-mpi --json. 0, or an exit code
 * after one line. */
static int read_result(const char *text, const char *errtext, double *sim_s) {
    cJSON *root = cJSON_Parse(text ? text : "");
    const cJSON *r = cJSON_IsArray(root) ? cJSON_GetArrayItem(root, 0) : NULL;
    const cJSON *check = cJSON_GetObjectItemCaseSensitive(r, "check");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "opticoll_s");
    int rc = 0;
    char line[200];
    if (!cJSON_IsString(check) || !cJSON_IsNumber(t)) {
        last_line(errtext, line, sizeof line);
        rc = die(EXIT_OTHER, "smpirun gave no result: %s", *line ? line : "(no message)", NULL);
    } else if (strcmp(check->valuestring, "ok")) {
        rc = die(EXIT_VERIFY, "under SimGrid the executor's result differs from MPI's: %s",
                 check->valuestring, NULL);
    } else {
        *sim_s = t->valuedouble;
    }
    cJSON_Delete(root);
    return rc;
}

/* "ring" or "ring:k=v,k=v": the algorithm with the parameters the model's run used. */
static char *algorithm_arg(const char *name, const oc_report *rep) {
    const oc_kv *p = oc_report_params(rep);
    size_t n = strlen(name) + 2;
    for (size_t i = 0; i < oc_kv_count(p); i++)
        n += strlen(oc_kv_key(p, i)) + strlen(oc_kv_value(p, i)) + 2;
    char *s = malloc(n);
    if (!s) return NULL;
    size_t at = (size_t)snprintf(s, n, "%s", name);
    for (size_t i = 0; i < oc_kv_count(p); i++)
        at += (size_t)snprintf(s + at, n - at, "%s%s=%s", i ? "," : ":", oc_kv_key(p, i),
                               oc_kv_value(p, i));
    return s;
}

static int simgrid(options *o) {
    if (o->net && strcmp(o->net, "fattree"))
        return die(EXIT_USAGE, "simgrid: SimGrid runs the schedule on the fat-tree; drop -t %s",
                   o->net, NULL);
    o->net = "fattree";
    oc_request req;
    int rc = fold_network_flags(o);
    if (rc || (rc = build_request(o, &req, 1))) return rc;
    if (req.nodes > OC_SIMGRID_MAX_NODES) {
        char cap[16];
        snprintf(cap, sizeof cap, "%u", OC_SIMGRID_MAX_NODES);
        return die(EXIT_USAGE, "simgrid: -n %s: at most %s ranks (SMPI needs ~13 GB at 1024)",
                   o->nodes, cap);
    }
    /* the executor's --sizes is one block, as MPI counts it (reduce-scatter: a rank's share of
     * the vector, where -s is the whole vector), in whole floats */
    const uint64_t block = req.collective == OC_REDUCESCATTER ? req.bytes / req.nodes : req.bytes;
    if (block % 4 || (req.collective == OC_REDUCESCATTER && req.bytes % req.nodes))
        return die(EXIT_USAGE,
                   "simgrid: -s %s: the executor runs floats, so a block must be a whole number "
                   "of 4 bytes (reduce-scatter: the vector / N)",
                   o->size, NULL);
    const char *exe = getenv("OPTICOLL_SMPI_EXE");
    if (!exe || !*exe) exe = OC_SMPI_EXE;
    if (access(exe, X_OK))
        return die(EXIT_OTHER,
                   "simgrid: no SMPI build of opticoll-mpi at %s (make simgrid, or "
                   "scripts/simgrid.sh --build-only, builds it; OPTICOLL_SMPI_EXE names another)",
                   exe, NULL);
    char tmpl[] = "/tmp/opticoll-simgrid-XXXXXX";
    const char *tmpdir = getenv("TMPDIR");
    char *dir = NULL;
    if (tmpdir && *tmpdir) {
        dir = in_dir(tmpdir, "opticoll-simgrid-XXXXXX");
        if (dir && !mkdtemp(dir)) {
            free(dir);
            dir = NULL;
        }
    } else if (mkdtemp(tmpl)) {
        dir = strdup(tmpl);
    }
    if (!dir)
        return die(EXIT_OTHER, "simgrid: cannot make a temporary directory: %s", strerror(errno),
                   NULL);
    char *platform = in_dir(dir, "fattree.xml"), *hosts = in_dir(dir, "hosts"),
         *out = in_dir(dir, "out.json"), *err = in_dir(dir, "err.txt"), *algo = NULL, *text = NULL,
         *errtext = NULL;
    oc_report *rep = NULL;
    FILE *f = NULL;
    char why[512] = "";
    if (!platform || !hosts || !out || !err) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto done;
    }
    /* 1. the model's run and the platform of its settings */
    if (!(f = fopen(platform, "w"))) {
        rc = die(EXIT_OTHER, "simgrid: cannot write %s: %s", platform, strerror(errno));
        goto done;
    }
    int lerr = oc_simgrid_platform(&req, f, &rep, why, sizeof why);
    if (fclose(f) && !lerr) lerr = OC_EIO, snprintf(why, sizeof why, "cannot write the platform");
    f = NULL;
    if (lerr) {
        rc = lib_error(lerr, why);
        goto done;
    }
    if (!(f = fopen(hosts, "w"))) {
        rc = die(EXIT_OTHER, "simgrid: cannot write %s: %s", hosts, strerror(errno));
        goto done;
    }
    for (uint32_t v = 0; v < req.nodes; v++)
        fprintf(f, "node-%u\n", v);
    if (fclose(f)) {
        f = NULL;
        rc = die(EXIT_OTHER, "simgrid: cannot write %s", hosts, NULL);
        goto done;
    }
    f = NULL;
    /* 2. the same schedule under smpirun */
    algo = algorithm_arg(req.algorithm, rep);
    char np[16], bytes[32];
    snprintf(np, sizeof np, "%u", req.nodes);
    snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)block);
    char root[16];
    snprintf(root, sizeof root, "%u", req.root);
    char *argv[] = {OC_SMPIRUN,
                    "-np",
                    np,
                    "-platform",
                    platform,
                    "-hostfile",
                    hosts,
                    "--cfg=smpi/lat-factor:0:1",
                    "--cfg=smpi/bw-factor:0:1",
                    "--cfg=network/crosstraffic:0",
                    "--cfg=smpi/simulate-computation:no",
                    "--log=root.thres:critical",
                    (char *)exe,
                    "--collectives",
                    (char *)oc_collective_name(req.collective),
                    "--algorithms",
                    algo,
                    "--sizes",
                    bytes,
                    "--root",
                    root,
                    "--repeats",
                    "1",
                    "--warmup",
                    "0",
                    "--json",
                    NULL};
    if (!algo) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto done;
    }
    int st = run_child(argv, out, err);
    text = slurp(out);
    errtext = slurp(err);
    if (st < 0) {
        rc = die(EXIT_OTHER, "simgrid: cannot run %s", OC_SMPIRUN, NULL);
        goto done;
    }
    double sim_s = 0;
    if ((rc = read_result(text, errtext, &sim_s))) goto done;
    const double model_s = oc_report_time(rep);
    if (o->json) {
        printf("{\"collective\": \"%s\", \"algorithm\": \"%s\", \"nodes\": %u, \"bytes\": %llu, "
               "\"simgrid_s\": %.17g, \"model_s\": %.17g, \"ratio\": %.17g, \"report\": ",
               oc_collective_name(req.collective), req.algorithm, req.nodes,
               (unsigned long long)req.bytes, sim_s, model_s, sim_s / model_s);
        if (oc_report_write_json(rep, stdout) == OC_ENOMEM) {
            rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
            goto done;
        }
        puts("}");
    } else {
        char ts[32], tm[32];
        oc_format_seconds(ts, sizeof ts, sim_s);
        oc_format_seconds(tm, sizeof tm, model_s);
        printf("%s / %s on the fat-tree, %u nodes, %llu bytes\n",
               oc_collective_name(req.collective), algo, req.nodes, (unsigned long long)req.bytes);
        printf("  SimGrid (SMPI, the executor; result checked):  %s\n", ts);
        printf("  opticoll fattree model (verified):             %s\n", tm);
        printf("  SimGrid / model:                               %.3f\n", sim_s / model_s);
    }
done:
    if (f) fclose(f);
    oc_report_free(rep);
    free(text);
    free(errtext);
    free(algo);
    const char *files[] = {platform, hosts, out, err};
    for (size_t i = 0; i < 4; i++)
        if (files[i]) unlink(files[i]);
    rmdir(dir);
    free(platform);
    free(hosts);
    free(out);
    free(err);
    free(dir);
    return rc;
}

int cmd_simgrid(int argc, char **argv) {
    options o;
    int rc = options_read(argc, argv, "simgrid", &o);
    if (!rc) {
        if (o.help)
            fputs(simgrid_help, stdout), fputs(help_problem, stdout), fputs(help_algo, stdout),
                fputs(simgrid_options, stdout);
        else
            rc = simgrid(&o);
    }
    options_free(&o);
    return rc;
}
