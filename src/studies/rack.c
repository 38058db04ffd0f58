/*
 * rack.c — multi-tenant allocation in a photonic rack (seed: "Chip-to-chip photonic connectivity in
 * multi-accelerator servers for ML", section 3 and Fig. 2a) against fixed-slice racks.
 *
 * The seed's claim: circuit-switched racks that hand out direct-connect slices "in fixed and
 * limited sizes (e.g., 3D Torus-based TPU [1], BCube-based SiPAC [4])" strand free chips, while
 * Lumorph, which switches circuits at each tile and crosses between servers on fibres, "can provide
 * arbitrary sized circuit-switched allocations to tenants given enough fibers between servers".
 * We replay one trace of tenants (arrive asking for g GPUs, later leave) on three racks of the same
 * servers x tiles GPUs and count what each does with it.
 *
 * lumorph. Any free tiles may be given. Placement (a greedy rule of ours; the seed gives none):
 * the fullest server that still has g free tiles (best fit, no fibres needed); otherwise the
 * servers with the most free tiles, most first, until g are covered, taking each one's lowest free
 * tiles. A tenant spanning servers must reserve fibres for its circuits; every ordered pair of
 * servers has `fibres` fibres (the fabric model's fibres_between_servers), each carrying one tile's
 * W wavelengths. What a tenant reserves, with c_a its tiles on server a:
 *  - rhd (g a power of two): min(c_a, c_b) fibres on every ordered pair (a, b) of its servers. This
 *    is enough for any round of any radix in the fabric model: a tile sends and receives at most W
 *    wavelengths in a round, so the wavelengths from a to b are at most W min(c_a, c_b).
 *  - ring (other g, or a power of two whose rhd fibres are not spare): one fibre from each of its
 *    servers to the next in a cycle (servers in index order): the ring's circuits i -> i+1 cross
 *    each server boundary once, one circuit of W wavelengths each.
 * A request is rejected when fewer than g tiles are free or the chosen servers lack the ring's
 * fibres. The fibres are held until the tenant leaves.
 *
 * tpu. TPU-v4-like (seed [1]): chips in 4x4x4 cubes wired as 3D tori, the cubes joined by optical
 * circuit switches (OCS). We number the rack's chips in 3D Morton (Z) order, so that every
 * aligned block of 2^k consecutive chips is a 2^a x 2^b x 2^c sub-cube with a, b, c differing by
 * at most one, and blocks of 64 are whole 4x4x4 cubes. A request of at most a cube is rounded up
 * to the next power of two and given an aligned block inside one cube; a larger one is rounded up
 * to whole cubes, ceil(g / 64), and given ANY free cubes of the rack: the OCS wire any cubes into a
 * 4 x 4 x 4k torus (TPU-v4 slices are 4a x 4b x 4c, not powers of two only; before, a
 * 128-GPU tenant was rejected while two free cubes existed that were not an aligned pair).
 *
 * sipac. SiPAC(r, l) (seed [4]): BCube-like groups of r^l GPUs; a slice is a sub-BCube, the r^k
 * GPUs sharing their first l-k digits, i.e. an aligned block of r^k. A request is rounded up to a
 * power of r; one larger than r^l (or than the rack) is rejected.
 *
 * Both fixed-slice racks allocate by a buddy rule: among the free aligned blocks of the size, the
 * one whose enclosing block (the next size up) is fullest, then the lowest; this packs slices
 * together and keeps large blocks free. Server boundaries do not matter to them (their own
 * interconnect wires the slice).
 *
 * Figures, time-averaged over the trace (from its first to its last event) as fractions of the
 * rack's GPUs: utilisation (GPUs asked for by placed tenants) + rounding (given beyond the
 * request) + idle (given to no-one) = 1; stranded = min(free GPUs, C) minus the largest request
 * the rack could place at that moment, where C is the largest request the empty rack places (so a
 * big rack of SiPAC groups is not charged for requests no SiPAC slice could take) — the free
 * GPUs that fragmentation makes unusable to one tenant. A rejection is "fragmented" when at least
 * g GPUs were free. For lumorph C is the whole rack whatever its fibres (the seed's arbitrary
 * sizes "given enough fibers"): a request only the fibres stop, with g GPUs free, is counted as
 * rejected for want of fibres ("no fibres"), not as too large, and its free GPUs as stranded.
 *
 * All-reduce. Every placed tenant runs one all-reduce of `bytes` with the best algorithm for its
 * allocation (section 3): ring when g is not a power of two, rhd otherwise, radix 2 and, when g
 * is a power of 4, radix 4, whichever the model says is faster (a lumorph tenant that could only
 * reserve ring fibres runs the ring). lumorph tenants run on the `fabric` model with
 * tiles_per_server = their largest share of one server and fibres_between_servers = their
 * smallest reservation on a server pair (their smallest share for rhd, 1 for the ring), so the
 * check proves every pair's reservation suffices; rhd the check refuses with that falls back to
 * the ring (radix 4 to radix 2), and rhd the fabric had to degrade (its circuits sharing the
 * reserved fibres' wavelengths, fabric.c) is raced against the ring, the faster kept; the fabric
 * model numbers nodes
 * server by server with equal shares, so it sees the tenant's servers packed evenly. The fabric's
 * time does not depend on which servers a circuit joins (a wavelength's rate and the
 * reconfiguration are the same on a fibre), so this is the tenant's time; its resource check
 * proves the reserved fibre bound is enough. tpu and sipac tenants run on the ideal `switch`
 * (alpha 0.7 us, 300 GB/s, no contention): a stand-in for their torus and BCube that can only
 * flatter them. Each run is a verified oc_run (semantic verifier + the model's resource check; the
 * real-data run is skipped, as for every vector over 64 MiB of state), cached per (network, g,
 * layout), so a long trace costs a handful of runs.
 *
 * The invariants (no GPU given twice, counts, slices aligned, fibres within capacity and equal to
 * the reservations) are re-derived from the owner array after every event by oc__rack_check, on
 * long traces of large racks after every so many events (RACK_CHECK_WORK: 100 000 tenants on
 * 128 x 32 GPUs took 2 minutes in the checks alone) and after the last.
 *
 * The rack's work is five files (studies/rack.h): this one the shapes, the live state of a rack
 * and its three allocators with their invariants' check; rack_trace.c the traces (random, or read
 * from a file); rack_replay.c a trace replayed on each architecture with every placed tenant's
 * all-reduce run (cached); rack_output.c the result as text and JSON; rack_fig2a.c the seed's
 * Fig. 2a scenario.
 */
#include "studies/rack.h"
#include "core/json.h"
#include "core/quote.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const arch_names[OC__RACK_ARCHS] = {"lumorph", "tpu", "sipac"};

const char *oc__rack_arch_name(oc__rack_arch a) {
    return a < OC__RACK_ARCHS ? arch_names[a] : "?";
}

int oc__rack_is_pow(uint64_t g, uint64_t base) {
    if (g == 0) return 0;
    while (g % base == 0)
        g /= base;
    return g == 1;
}

int oc_rack_shape_check(const oc_rack_shape *s, char *why, size_t whylen) {
    if (s->servers < 1 || s->servers > OC__RACK_MAX_SERVERS)
        return oc__fail(why, whylen, OC_ERANGE, "--servers %u: 1 to %u servers", s->servers,
                        OC__RACK_MAX_SERVERS);
    if (s->tiles < 1 || s->tiles > OC__RACK_MAX_TILES)
        return oc__fail(why, whylen, OC_ERANGE,
                        "--tiles %u: a Lightpath server has 1 to 32 tiles (section 2)", s->tiles);
    if (s->fibres > OC__RACK_MAX_FIBRES)
        return oc__fail(why, whylen, OC_ERANGE, "--fibres %u: at most %u per server pair",
                        s->fibres, OC__RACK_MAX_FIBRES);
    if (s->sipac_r < 2 || s->sipac_r > 64)
        return oc__fail(why, whylen, OC_ERANGE, "--sipac-r %u: 2 to 64", s->sipac_r);
    uint64_t group = 1;
    for (uint32_t k = 0; k < s->sipac_l; k++)
        if ((group *= s->sipac_r) > (UINT64_C(1) << 31)) break;
    if (s->sipac_l < 1 || group > (UINT64_C(1) << 31))
        return oc__fail(why, whylen, OC_ERANGE, "--sipac-l %u: 1 .. r^l <= 2^31", s->sipac_l);
    if (s->bytes < 1 || s->bytes > OC_MAX_BYTES)
        return oc__fail(why, whylen, OC_ERANGE, "--size: 1 byte to 1 PiB");
    return 0;
}

uint32_t oc__rack_lumorph_cap(const oc__rack_shape *s) {
    return s->servers == 1 || s->fibres >= 1 ? s->servers * s->tiles : s->tiles;
}

/* ---- the live state of one rack ---------------------------------------------------------------
 */

struct oc__rack {
    oc__rack_shape s;
    oc__rack_arch arch;
    uint32_t N, S, T;  /* GPUs, servers, tiles per server */
    uint32_t base;     /* fixed slices: sizes base^k ... */
    uint32_t maxblock; /* ... up to this */
    int32_t *owner;    /* per GPU: tenant or -1 */
    uint32_t *free_s;  /* free tiles per server */
    uint32_t nfree;
    uint32_t *fib; /* fibres in use per ordered pair a * S + b */
    uint32_t max_tenants;
    uint32_t *held, *asked;
    uint8_t *forced; /* placed by oc__rack_occupy: exempt from the slice-shape check */
    uint64_t **res;  /* per tenant: (pair << 32 | fibres) reserved */
    uint32_t *nres;
    uint32_t *prefix;               /* N + 1 scratch: used GPUs before i */
    uint32_t *order, *srv, *cnt;    /* S scratch */
    uint64_t *scratch_pairs;        /* S * S scratch for the check */
    uint32_t *count, *lo, *hi, *fs; /* the check's scratch: per tenant (zero between checks), S */
    uint32_t *active, *pos;         /* live tenants, and each one's index in `active` */
    uint32_t nactive;
    uint32_t cap; /* the largest request the empty rack places */
};

void oc__rack_free(oc__rack *r) {
    if (!r) return;
    if (r->res)
        for (uint32_t t = 0; t < r->max_tenants; t++)
            free(r->res[t]);
    free(r->res);
    free(r->nres);
    free(r->owner);
    free(r->free_s);
    free(r->fib);
    free(r->held);
    free(r->asked);
    free(r->forced);
    free(r->prefix);
    free(r->order);
    free(r->srv);
    free(r->cnt);
    free(r->scratch_pairs);
    free(r->count);
    free(r->lo);
    free(r->hi);
    free(r->fs);
    free(r->active);
    free(r->pos);
    free(r);
}

int oc__rack_new(const oc__rack_shape *s, oc__rack_arch arch, uint32_t max_tenants, oc__rack **out,
                 char *why, size_t whylen) {
    *out = NULL;
    int rc = oc__rack_shape_check(s, why, whylen);
    if (rc) return rc;
    oc__rack *r = calloc(1, sizeof *r);
    if (!r) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    r->s = *s;
    r->arch = arch;
    r->S = s->servers;
    r->T = s->tiles;
    r->N = s->servers * s->tiles;
    r->nfree = r->N;
    r->max_tenants = max_tenants;
    r->base = arch == OC__RACK_SIPAC ? s->sipac_r : 2;
    uint64_t cap = arch == OC__RACK_SIPAC ? 1 : UINT64_MAX;
    if (arch == OC__RACK_SIPAC)
        for (uint32_t k = 0; k < s->sipac_l; k++)
            cap *= s->sipac_r;
    uint64_t m = 1;
    while (m * r->base <= r->N && m * r->base <= cap)
        m *= r->base;
    r->maxblock = (uint32_t)m;
    r->cap = arch != OC__RACK_LUMORPH ? r->maxblock : oc__rack_lumorph_cap(s);
    if (arch == OC__RACK_TPU && r->N >= 2 * OC__RACK_CUBE) {
        /* blocks up to a cube; above, whole cubes anywhere (cubes_place) */
        r->maxblock = OC__RACK_CUBE;
        r->cap = r->N / OC__RACK_CUBE * OC__RACK_CUBE;
    }
    r->owner = oc__malloc_array(r->N, sizeof *r->owner);
    r->free_s = oc__malloc_array(r->S, sizeof *r->free_s);
    r->fib = oc__calloc((size_t)r->S * r->S, sizeof *r->fib);
    r->held = oc__calloc(max_tenants + 1, sizeof *r->held);
    r->asked = oc__calloc(max_tenants + 1, sizeof *r->asked);
    r->forced = oc__calloc(max_tenants + 1, 1);
    r->res = oc__calloc(max_tenants + 1, sizeof *r->res);
    r->nres = oc__calloc(max_tenants + 1, sizeof *r->nres);
    r->prefix = oc__malloc_array(r->N + 1, sizeof *r->prefix);
    r->order = oc__malloc_array(r->S, sizeof *r->order);
    r->srv = oc__malloc_array(r->S, sizeof *r->srv);
    r->cnt = oc__malloc_array(r->S, sizeof *r->cnt);
    r->scratch_pairs = oc__malloc_array((size_t)r->S * r->S, sizeof *r->scratch_pairs);
    r->count = oc__calloc(max_tenants + 1, sizeof *r->count);
    r->lo = oc__calloc(max_tenants + 1, sizeof *r->lo);
    r->hi = oc__calloc(max_tenants + 1, sizeof *r->hi);
    r->fs = oc__calloc(r->S, sizeof *r->fs);
    r->active = oc__calloc(max_tenants + 1, sizeof *r->active);
    r->pos = oc__calloc(max_tenants + 1, sizeof *r->pos);
    if (!r->count || !r->lo || !r->hi || !r->fs || !r->active || !r->pos || !r->owner ||
        !r->free_s || !r->fib || !r->held || !r->asked || !r->forced || !r->res || !r->nres ||
        !r->prefix || !r->order || !r->srv || !r->cnt || !r->scratch_pairs) {
        oc__rack_free(r);
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < r->N; i++)
        r->owner[i] = -1;
    for (uint32_t i = 0; i < r->S; i++)
        r->free_s[i] = r->T;
    *out = r;
    return 0;
}

uint32_t oc__rack_free_gpus(const oc__rack *r) {
    return r->nfree;
}

int64_t oc__rack_owner(const oc__rack *r, uint32_t gpu) {
    return gpu < r->N ? r->owner[gpu] : -1;
}

/* ---- lumorph: any tiles, fibres permitting ---- */

/* Servers by free tiles, most first, then by index (insertion sort: S <= 128). */
static void sort_by_free(oc__rack *r) {
    for (uint32_t i = 0; i < r->S; i++) {
        uint32_t v = r->order[i] = i, j = i;
        while (j > 0 && r->free_s[r->order[j - 1]] < r->free_s[v]) {
            r->order[j] = r->order[j - 1];
            j--;
        }
        r->order[j] = v;
    }
}

static uint32_t u32min(uint32_t a, uint32_t b) {
    return a < b ? a : b;
}

/* Chooses servers srv[0..*ns) (ascending) with cnt[] tiles each and whether rhd's fibres are spare.
 * Returns 1 when g can be placed, 0 with the reason otherwise. */
static int lum_plan(oc__rack *r, uint32_t g, uint32_t *ns, int *rhd, char *why, size_t len) {
    if (g > r->nfree)
        return oc__fail(why, len, 0, "only %u GPU%s free", r->nfree, r->nfree == 1 ? "" : "s"), 0;
    int64_t best = -1;
    for (uint32_t s = 0; s < r->S; s++)
        if (r->free_s[s] >= g && (best < 0 || r->free_s[s] < r->free_s[best])) best = s;
    if (best >= 0) {
        *ns = 1;
        r->srv[0] = (uint32_t)best;
        r->cnt[0] = g;
        *rhd = oc__rack_is_pow(g, 2);
        return 1;
    }
    sort_by_free(r);
    uint32_t n = 0, left = g;
    while (left > 0) {
        uint32_t s = r->order[n], take = u32min(left, r->free_s[s]);
        r->srv[n] = s;
        r->cnt[n++] = take;
        left -= take;
    }
    /* ascending server index: the ring's order and a deterministic listing */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && r->srv[j - 1] > r->srv[j]; j--) {
            uint32_t a = r->srv[j], b = r->cnt[j];
            r->srv[j] = r->srv[j - 1], r->cnt[j] = r->cnt[j - 1];
            r->srv[j - 1] = a, r->cnt[j - 1] = b;
        }
    *ns = n;
    const uint32_t S = r->S, F = r->s.fibres;
    int ok = oc__rack_is_pow(g, 2);
    for (uint32_t i = 0; ok && i < n; i++)
        for (uint32_t j = 0; ok && j < n; j++)
            if (i != j && r->fib[r->srv[i] * S + r->srv[j]] + u32min(r->cnt[i], r->cnt[j]) > F)
                ok = 0;
    *rhd = ok;
    if (ok) return 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = r->srv[i], b = r->srv[(i + 1) % n];
        if (r->fib[a * S + b] + 1 > F)
            return oc__fail(why, len, 0,
                            "no spare fibre from server %u to server %u for the ring (%u of %u in "
                            "use)",
                            a, b, r->fib[a * S + b], F),
                   0;
    }
    return 1;
}

static int reserve(oc__rack *r, uint32_t t, uint32_t a, uint32_t b, uint32_t k) {
    uint64_t *p = realloc(r->res[t], (r->nres[t] + 1) * sizeof *p);
    if (!p) return OC_ENOMEM;
    r->res[t] = p;
    p[r->nres[t]++] = (uint64_t)(a * r->S + b) << 32 | k;
    r->fib[a * r->S + b] += k;
    return 0;
}

static void give(oc__rack *r, uint32_t t, uint32_t gpu) {
    if (!r->held[t]) {
        r->pos[t] = r->nactive;
        r->active[r->nactive++] = t;
    }
    r->owner[gpu] = (int32_t)t;
    r->free_s[gpu / r->T]--;
    r->nfree--;
    r->held[t]++;
}

static int lum_place(oc__rack *r, uint32_t t, uint32_t g, oc__rack_place *p, char *why,
                     size_t len) {
    uint32_t n;
    int rhd;
    if (!lum_plan(r, g, &n, &rhd, why, len)) return 0;
    p->allocated = g;
    p->servers = n;
    p->max_per_server = 0;
    p->min_per_server = UINT32_MAX;
    p->first = UINT32_MAX;
    p->fibres = 0;
    p->rhd_circuits = rhd;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = r->srv[i], need = r->cnt[i];
        if (need > p->max_per_server) p->max_per_server = need;
        if (need < p->min_per_server) p->min_per_server = need;
        for (uint32_t k = 0; k < r->T && need > 0; k++)
            if (r->owner[s * r->T + k] < 0) {
                if (s * r->T + k < p->first) p->first = s * r->T + k;
                give(r, t, s * r->T + k);
                need--;
            }
    }
    if (n > 1) {
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++) {
                uint32_t k = 0;
                if (rhd && i != j)
                    k = u32min(r->cnt[i], r->cnt[j]);
                else if (!rhd && j == (i + 1) % n)
                    k = 1;
                if (!k) continue;
                if (reserve(r, t, r->srv[i], r->srv[j], k))
                    return oc__fail(why, len, OC_ENOMEM, "out of memory");
                p->fibres += k;
            }
    }
    return 1;
}

/* ---- tpu and sipac: aligned blocks of base^k ---- */

static void fill_prefix(oc__rack *r) {
    r->prefix[0] = 0;
    for (uint32_t i = 0; i < r->N; i++)
        r->prefix[i + 1] = r->prefix[i] + (r->owner[i] >= 0);
}

static uint32_t used_in(const oc__rack *r, uint64_t a, uint64_t b) {
    if (b > r->N) b = r->N;
    return r->prefix[b] - r->prefix[a];
}

/* The start of the free aligned block of `size` whose parent block is fullest (then lowest), or
 * UINT32_MAX. The prefix sums must be current. */
static uint32_t find_block(const oc__rack *r, uint32_t size) {
    uint32_t best = UINT32_MAX, best_used = 0;
    const uint64_t parent = (uint64_t)size * r->base;
    for (uint64_t a = 0; a + size <= r->N; a += size) {
        if (used_in(r, a, a + size)) continue;
        const uint64_t pa = a / parent * parent;
        const uint32_t u = used_in(r, pa, pa + parent);
        if (best == UINT32_MAX || u > best_used) best = (uint32_t)a, best_used = u;
    }
    return best;
}

/* tpu above a cube: ceil(g / 64) free cubes anywhere (the OCS join any), fullest servers' first
 * is not a concern of the switch-wired slice; lowest first. */
static int cubes_place(oc__rack *r, uint32_t t, uint32_t g, oc__rack_place *p, char *why,
                       size_t len) {
    const uint32_t k = (g + OC__RACK_CUBE - 1) / OC__RACK_CUBE, cubes = r->N / OC__RACK_CUBE;
    if (k > cubes)
        return oc__fail(why, len, 0, "%u GPUs round up to %u cubes of 64, the rack has %u", g, k,
                        cubes),
               0;
    if (g > r->nfree)
        return oc__fail(why, len, 0, "only %u GPU%s free", r->nfree, r->nfree == 1 ? "" : "s"), 0;
    fill_prefix(r);
    uint32_t free_cubes = 0;
    for (uint32_t c = 0; c < cubes; c++)
        free_cubes +=
            used_in(r, (uint64_t)c * OC__RACK_CUBE, (uint64_t)(c + 1) * OC__RACK_CUBE) == 0;
    if (free_cubes < k)
        return oc__fail(why, len, 0, "%u whole cubes needed, %u free", k, free_cubes), 0;
    uint32_t got = 0, lo = UINT32_MAX, hi = 0;
    for (uint32_t c = 0; c < cubes && got < k; c++) {
        if (used_in(r, (uint64_t)c * OC__RACK_CUBE, (uint64_t)(c + 1) * OC__RACK_CUBE)) continue;
        for (uint32_t i = c * OC__RACK_CUBE; i < (c + 1) * OC__RACK_CUBE; i++)
            give(r, t, i);
        if (lo == UINT32_MAX) lo = c * OC__RACK_CUBE;
        hi = (c + 1) * OC__RACK_CUBE - 1;
        got++;
    }
    p->allocated = k * OC__RACK_CUBE;
    p->first = lo;
    p->servers = hi / r->T - lo / r->T + 1;
    p->max_per_server = p->min_per_server = r->T < OC__RACK_CUBE ? r->T : OC__RACK_CUBE;
    p->fibres = 0;
    p->rhd_circuits = 1;
    return 1;
}

static int slice_place(oc__rack *r, uint32_t t, uint32_t g, oc__rack_place *p, char *why,
                       size_t len) {
    if (r->arch == OC__RACK_TPU && g > OC__RACK_CUBE && r->N >= 2 * OC__RACK_CUBE)
        return cubes_place(r, t, g, p, why, len);
    uint64_t size = 1;
    while (size < g)
        size *= r->base;
    if (size > r->maxblock)
        return oc__fail(why, len, 0,
                        "%u GPUs round up to a slice of %llu, larger than the largest (%u)", g,
                        (unsigned long long)size, r->maxblock),
               0;
    if (g > r->nfree)
        return oc__fail(why, len, 0, "only %u GPU%s free", r->nfree, r->nfree == 1 ? "" : "s"), 0;
    fill_prefix(r);
    uint32_t a = find_block(r, (uint32_t)size);
    if (a == UINT32_MAX)
        return oc__fail(why, len, 0, "no free aligned slice of %llu GPUs",
                        (unsigned long long)size),
               0;
    for (uint32_t i = a; i < a + size; i++)
        give(r, t, i);
    p->allocated = (uint32_t)size;
    p->first = a;
    p->servers = (uint32_t)((a + size - 1) / r->T - a / r->T + 1);
    p->max_per_server = p->min_per_server = (uint32_t)(size < r->T ? size : r->T);
    p->fibres = 0;
    p->rhd_circuits = 1;
    return 1;
}

int oc__rack_place_tenant(oc__rack *r, uint32_t t, uint32_t g, oc__rack_place *p, char *why,
                          size_t whylen) {
    oc__rack_place local;
    if (!p) p = &local;
    memset(p, 0, sizeof *p);
    if (t >= r->max_tenants || r->held[t] || g == 0)
        return oc__fail(why, whylen, OC_EINVAL, "rack: tenant %u cannot be placed", t);
    int ok = r->arch == OC__RACK_LUMORPH ? lum_place(r, t, g, p, why, whylen)
                                         : slice_place(r, t, g, p, why, whylen);
    if (ok == 1) r->asked[t] = g;
    return ok;
}

int oc__rack_occupy(oc__rack *r, uint32_t t, uint32_t first, uint32_t count, char *why,
                    size_t whylen) {
    if (t >= r->max_tenants || r->held[t] || count == 0 || first > r->N || count > r->N - first)
        return oc__fail(why, whylen, OC_EINVAL, "rack: cannot give tenant %u GPUs %u..%u", t, first,
                        first + count - 1);
    for (uint32_t i = first; i < first + count; i++)
        if (r->owner[i] >= 0)
            return oc__fail(why, whylen, OC_EINVAL, "rack: GPU %u is not free", i);
    for (uint32_t i = first; i < first + count; i++)
        give(r, t, i);
    r->asked[t] = count;
    r->forced[t] = 1;
    return 0;
}

int oc__rack_release(oc__rack *r, uint32_t t) {
    if (t >= r->max_tenants || !r->held[t]) return OC_EINVAL;
    for (uint32_t i = 0; i < r->N && r->held[t]; i++)
        if (r->owner[i] == (int32_t)t) {
            r->owner[i] = -1;
            r->free_s[i / r->T]++;
            r->nfree++;
            r->held[t]--;
        }
    for (uint32_t k = 0; k < r->nres[t]; k++)
        r->fib[r->res[t][k] >> 32] -= (uint32_t)(r->res[t][k] & 0xffffffffu);
    free(r->res[t]);
    r->res[t] = NULL;
    r->nres[t] = 0;
    const uint32_t last = r->active[--r->nactive]; /* t leaves the live list */
    r->active[r->pos[t]] = last;
    r->pos[last] = r->pos[t];
    r->asked[t] = 0;
    r->forced[t] = 0;
    return 0;
}

uint32_t oc__rack_largest(oc__rack *r) {
    if (r->arch == OC__RACK_LUMORPH) {
        char why[8];
        for (uint32_t g = r->nfree < r->cap ? r->nfree : r->cap; g > 0; g--) {
            uint32_t n;
            int rhd;
            if (lum_plan(r, g, &n, &rhd, why, sizeof why)) return g;
        }
        return 0;
    }
    fill_prefix(r);
    if (r->arch == OC__RACK_TPU && r->N >= 2 * OC__RACK_CUBE) {
        uint32_t free_cubes = 0;
        for (uint32_t c = 0; c < r->N / OC__RACK_CUBE; c++)
            free_cubes +=
                used_in(r, (uint64_t)c * OC__RACK_CUBE, (uint64_t)(c + 1) * OC__RACK_CUBE) == 0;
        if (free_cubes >= 2) return free_cubes * OC__RACK_CUBE;
    }
    for (uint64_t size = r->maxblock; size >= 1; size /= r->base) {
        if (size <= r->nfree && find_block(r, (uint32_t)size) != UINT32_MAX) return (uint32_t)size;
        if (size == 1) break;
    }
    return 0;
}

int oc__rack_check(const oc__rack *r, char *why, size_t whylen) {
    /* Linear in the rack and its live tenants (never in the whole trace): owners counted from the
     * owner array into scratch arrays, compared with the live tenants' holdings, then reset. */
    const uint32_t M = r->max_tenants;
    uint32_t *count = r->count, *lo = r->lo, *hi = r->hi, *fs = r->fs;
    memset(fs, 0, r->S * sizeof *fs);
    int rc = 0;
    uint32_t nfree = 0;
    for (uint32_t i = 0; i < r->N; i++) {
        const int32_t o = r->owner[i];
        if (o < 0) {
            nfree++;
            fs[i / r->T]++;
            continue;
        }
        if ((uint32_t)o >= M) {
            rc = oc__fail(why, whylen, OC_ERESOURCE, "rack: GPU %u has owner %d", i, o);
            goto out;
        }
        if (!count[o]++) lo[o] = i;
        hi[o] = i;
    }
    if (nfree != r->nfree) {
        rc = oc__fail(why, whylen, OC_ERESOURCE, "rack: %u GPUs free, the count says %u", nfree,
                      r->nfree);
        goto out;
    }
    for (uint32_t s = 0; s < r->S; s++)
        if (fs[s] != r->free_s[s]) {
            rc = oc__fail(why, whylen, OC_ERESOURCE, "rack: server %u has %u free tiles, not %u", s,
                          fs[s], r->free_s[s]);
            goto out;
        }
    uint64_t held = 0;
    for (uint32_t k = 0; k < r->nactive; k++) {
        const uint32_t t = r->active[k];
        held += count[t];
        if (!r->held[t] || count[t] != r->held[t]) {
            rc = oc__fail(why, whylen, OC_ERESOURCE, "rack: tenant %u owns %u GPUs, holds %u", t,
                          count[t], r->held[t]);
            goto out;
        }
        if (r->forced[t]) continue;
        if (r->arch == OC__RACK_LUMORPH) {
            if (count[t] != r->asked[t]) {
                rc = oc__fail(why, whylen, OC_ERESOURCE, "rack: tenant %u got %u GPUs, asked %u", t,
                              count[t], r->asked[t]);
                goto out;
            }
        } else if (r->arch == OC__RACK_TPU && count[t] > r->maxblock) {
            /* whole cubes: every cube the tenant touches is all its own */
            int whole = count[t] % OC__RACK_CUBE == 0 && count[t] >= r->asked[t];
            for (uint32_t c = lo[t] / OC__RACK_CUBE; whole && c <= hi[t] / OC__RACK_CUBE; c++) {
                const int32_t o0 = r->owner[c * OC__RACK_CUBE];
                for (uint32_t i = c * OC__RACK_CUBE; whole && i < (c + 1) * OC__RACK_CUBE; i++)
                    if ((r->owner[i] == (int32_t)t) != (o0 == (int32_t)t)) whole = 0;
            }
            if (!whole) {
                rc = oc__fail(why, whylen, OC_ERESOURCE,
                              "rack: tenant %u's %u GPUs are not whole cubes of 64", t, count[t]);
                goto out;
            }
        } else if (!oc__rack_is_pow(count[t], r->base) || count[t] > r->maxblock ||
                   count[t] < r->asked[t] || lo[t] % count[t] || hi[t] - lo[t] + 1 != count[t]) {
            rc = oc__fail(why, whylen, OC_ERESOURCE,
                          "rack: tenant %u's %u GPUs (%u..%u) are not an aligned slice", t,
                          count[t], lo[t], hi[t]);
            goto out;
        }
    }
    /* every owned GPU belongs to a live tenant: the live tenants' counts add up to the owned */
    if (held + nfree != r->N) {
        rc = oc__fail(why, whylen, OC_ERESOURCE,
                      "rack: %llu GPUs held by live tenants + %u free != %u GPUs",
                      (unsigned long long)held, nfree, r->N);
        goto out;
    }
    uint64_t *sum = r->scratch_pairs;
    memset(sum, 0, (size_t)r->S * r->S * sizeof *sum);
    for (uint32_t k = 0; k < r->nactive; k++) {
        const uint32_t t = r->active[k];
        for (uint32_t j = 0; j < r->nres[t]; j++)
            sum[r->res[t][j] >> 32] += r->res[t][j] & 0xffffffffu;
    }
    for (uint32_t p = 0; p < r->S * r->S; p++)
        if (sum[p] != r->fib[p] || r->fib[p] > r->s.fibres) {
            rc = oc__fail(why, whylen, OC_ERESOURCE,
                          "rack: servers %u -> %u: %u fibres in use, %llu reserved, %u exist",
                          p / r->S, p % r->S, r->fib[p], (unsigned long long)sum[p], r->s.fibres);
            goto out;
        }
out:
    for (uint32_t i = 0; i < r->N; i++)
        if (r->owner[i] >= 0 && (uint32_t)r->owner[i] < M) count[r->owner[i]] = 0;
    return rc;
}
