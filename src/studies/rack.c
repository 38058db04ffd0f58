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

/* TPU-v4's cube: 4 x 4 x 4 chips. */
enum { CUBE = 64 };

static int is_pow(uint64_t g, uint64_t base) {
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

/* The largest request an empty lumorph rack places: all of it when one ring fibre joins each
 * server to the next (a power of two whose rhd fibres are short falls back to the ring), else
 * one server. */
static uint32_t lumorph_cap(const oc__rack_shape *s) {
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
    r->cap = arch != OC__RACK_LUMORPH ? r->maxblock : lumorph_cap(s);
    if (arch == OC__RACK_TPU && r->N >= 2 * CUBE) {
        /* blocks up to a cube; above, whole cubes anywhere (cubes_place) */
        r->maxblock = CUBE;
        r->cap = r->N / CUBE * CUBE;
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
        *rhd = is_pow(g, 2);
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
    int ok = is_pow(g, 2);
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
    const uint32_t k = (g + CUBE - 1) / CUBE, cubes = r->N / CUBE;
    if (k > cubes)
        return oc__fail(why, len, 0, "%u GPUs round up to %u cubes of 64, the rack has %u", g, k,
                        cubes),
               0;
    if (g > r->nfree)
        return oc__fail(why, len, 0, "only %u GPU%s free", r->nfree, r->nfree == 1 ? "" : "s"), 0;
    fill_prefix(r);
    uint32_t free_cubes = 0;
    for (uint32_t c = 0; c < cubes; c++)
        free_cubes += used_in(r, (uint64_t)c * CUBE, (uint64_t)(c + 1) * CUBE) == 0;
    if (free_cubes < k)
        return oc__fail(why, len, 0, "%u whole cubes needed, %u free", k, free_cubes), 0;
    uint32_t got = 0, lo = UINT32_MAX, hi = 0;
    for (uint32_t c = 0; c < cubes && got < k; c++) {
        if (used_in(r, (uint64_t)c * CUBE, (uint64_t)(c + 1) * CUBE)) continue;
        for (uint32_t i = c * CUBE; i < (c + 1) * CUBE; i++)
            give(r, t, i);
        if (lo == UINT32_MAX) lo = c * CUBE;
        hi = (c + 1) * CUBE - 1;
        got++;
    }
    p->allocated = k * CUBE;
    p->first = lo;
    p->servers = hi / r->T - lo / r->T + 1;
    p->max_per_server = p->min_per_server = r->T < CUBE ? r->T : CUBE;
    p->fibres = 0;
    p->rhd_circuits = 1;
    return 1;
}

static int slice_place(oc__rack *r, uint32_t t, uint32_t g, oc__rack_place *p, char *why,
                       size_t len) {
    if (r->arch == OC__RACK_TPU && g > CUBE && r->N >= 2 * CUBE)
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
    if (r->arch == OC__RACK_TPU && r->N >= 2 * CUBE) {
        uint32_t free_cubes = 0;
        for (uint32_t c = 0; c < r->N / CUBE; c++)
            free_cubes += used_in(r, (uint64_t)c * CUBE, (uint64_t)(c + 1) * CUBE) == 0;
        if (free_cubes >= 2) return free_cubes * CUBE;
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
            int whole = count[t] % CUBE == 0 && count[t] >= r->asked[t];
            for (uint32_t c = lo[t] / CUBE; whole && c <= hi[t] / CUBE; c++) {
                const int32_t o0 = r->owner[c * CUBE];
                for (uint32_t i = c * CUBE; whole && i < (c + 1) * CUBE; i++)
                    if ((r->owner[i] == (int32_t)t) != (o0 == (int32_t)t)) whole = 0;
            }
            if (!whole) {
                rc = oc__fail(why, whylen, OC_ERESOURCE,
                              "rack: tenant %u's %u GPUs are not whole cubes of 64", t, count[t]);
                goto out;
            }
        } else if (!is_pow(count[t], r->base) || count[t] > r->maxblock || count[t] < r->asked[t] ||
                   lo[t] % count[t] || hi[t] - lo[t] + 1 != count[t]) {
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

/* ---- traces -----------------------------------------------------------------------------------
 */

void oc__rack_trace_free(oc__rack_trace *t) {
    if (!t) return;
    free(t->tenants);
    free(t->events);
    memset(t, 0, sizeof *t);
}

static int add_tenant(oc__rack_trace *t, size_t *cap, const char *id, uint32_t g, double at) {
    if (t->ntenants == *cap &&
        oc__grow((void **)&t->tenants, cap, t->ntenants + 1, sizeof *t->tenants))
        return OC_ENOMEM;
    oc__rack_tenant *x = &t->tenants[t->ntenants++];
    memset(x, 0, sizeof *x);
    snprintf(x->id, sizeof x->id, "%s", id);
    x->gpus = g;
    x->arrive = at;
    x->leave = -1;
    return 0;
}

static int add_event(oc__rack_trace *t, size_t *cap, double at, int leave, size_t tenant) {
    if (t->nevents == *cap && oc__grow((void **)&t->events, cap, t->nevents + 1, sizeof *t->events))
        return OC_ENOMEM;
    t->events[t->nevents++] = (oc__rack_event){at, leave, (uint32_t)tenant};
    return 0;
}

/* splitmix64 (Steele, Lea and Flood): the same numbers on every platform, unlike rand(). */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (the modulo bias is below 2^-50 for these n). */
static uint32_t below(uint64_t *x, uint32_t n) {
    return (uint32_t)(splitmix64(x) % n);
}

static int by_event(const void *x, const void *y) {
    const oc__rack_event *a = x, *b = y;
    if (a->time != b->time) return a->time < b->time ? -1 : 1;
    if (a->leave != b->leave) return a->leave ? -1 : 1; /* leaves first: they free GPUs */
    return a->tenant < b->tenant ? -1 : a->tenant > b->tenant;
}

/* The seeded trace. Tenant i arrives 1 .. 19 time units (uniform, mean 10) after tenant i-1 and
 * stays 1 .. 199 units (uniform, mean 100), so about 10 tenants are present at once. Its size g is,
 * with probability 1/2, a power of two 2^k with k uniform in 0 .. log2(G), else uniform in 1 .. G,
 * where G = min(64, rack GPUs): a mean of about 25 GPUs, so the offered load is close to a
 * 256-GPU rack. Integer times and integer arithmetic only: the same trace on every platform. */
int oc__rack_trace_random(uint64_t seed, uint32_t tenants, uint32_t rack_gpus, oc__rack_trace *out,
                          char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    if (tenants < 1 || tenants > OC__RACK_MAX_TENANTS)
        return oc__fail(why, whylen, OC_ERANGE, "--tenants %u: 1 to %u", tenants,
                        OC__RACK_MAX_TENANTS);
    const uint32_t G = rack_gpus < 64 ? rack_gpus : 64;
    uint32_t kmax = 0;
    while ((2u << kmax) <= G)
        kmax++;
    size_t tcap = 0, ecap = 0;
    uint64_t x = seed;
    uint64_t now = 0;
    for (uint32_t i = 0; i < tenants; i++) {
        now += 1 + below(&x, 19);
        uint32_t g = (splitmix64(&x) & 1) ? 1u << below(&x, kmax + 1) : 1 + below(&x, G);
        uint64_t stay = 1 + below(&x, 199);
        char id[16];
        snprintf(id, sizeof id, "t%u", i + 1);
        if (add_tenant(out, &tcap, id, g, (double)now) ||
            add_event(out, &ecap, (double)now, 0, i) ||
            add_event(out, &ecap, (double)(now + stay), 1, i)) {
            oc__rack_trace_free(out);
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        }
        out->tenants[i].leave = (double)(now + stay);
    }
    qsort(out->events, out->nevents, sizeof *out->events, by_event);
    snprintf(out->source, sizeof out->source, "seed %llu, %u tenants", (unsigned long long)seed,
             tenants);
    return 0;
}

/* Active ids: open addressing on FNV-1a, linear probing; tombstones keep probe chains whole. */
typedef struct idmap {
    int64_t *slot; /* tenant index, -1 empty, -2 deleted */
    size_t mask;
} idmap;

static uint64_t fnv1a(const char *s) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

/* The slot holding id, or (with insert) the first free one on its chain; SIZE_MAX if absent. */
static size_t idmap_find(const idmap *m, const oc__rack_trace *t, const char *id, int insert) {
    size_t i = (size_t)fnv1a(id) & m->mask, tomb = SIZE_MAX;
    for (;; i = (i + 1) & m->mask) {
        const int64_t v = m->slot[i];
        if (v == -1) return insert ? (tomb != SIZE_MAX ? tomb : i) : SIZE_MAX;
        if (v == -2) {
            if (tomb == SIZE_MAX) tomb = i;
        } else if (!strcmp(t->tenants[v].id, id)) {
            return i;
        }
    }
}

int oc__rack_trace_parse(const char *text, size_t len, const char *source, uint32_t rack_gpus,
                         oc__rack_trace *out, char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    source = OC_Q(source); /* a file name, in messages only */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    idmap m = {NULL, 0};
    size_t size = 16;
    while (size < 2 * lines + 2)
        size *= 2;
    m.slot = oc__malloc_array(size, sizeof *m.slot);
    if (!m.slot) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    m.mask = size - 1;
    for (size_t i = 0; i < size; i++)
        m.slot[i] = -1;
    size_t tcap = 0, ecap = 0, arrivals = 0;
    uint32_t *arrived_line = NULL;
    size_t acap = 0;
    double last = 0;
    int rc = 0;
    unsigned lineno = 0;
    for (size_t at = 0; at < len || (at == len && lineno == 0 && len == 0);) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        lineno++;
        char buf[512];
        size_t n = end - at;
        if (n >= sizeof buf) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: line longer than %zu characters", source,
                          lineno, sizeof buf - 1);
            goto fail;
        }
        if (memchr(text + at, 0, n)) {
            /* a NUL would silently end the line early: refuse rather than drop its tail */
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: the line holds a NUL byte", source,
                          lineno);
            goto fail;
        }
        memcpy(buf, text + at, n);
        buf[n] = 0;
        at = end + 1;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *tok[5];
        int nt = 0;
        for (char *save = NULL, *w = strtok_r(buf, " \t\r", &save); w;
             w = strtok_r(NULL, " \t\r", &save)) {
            if (nt == 5) break;
            tok[nt++] = w;
        }
        if (nt == 0) {
            if (end >= len) break;
            continue;
        }
        if (nt < 3 || nt > 4) {
            rc = oc__fail(why, whylen, OC_EPARSE,
                          "%s:%u: expected 'TIME arrive ID GPUS' or 'TIME leave ID', got %d "
                          "field%s",
                          source, lineno, nt, nt == 1 ? "" : "s");
            goto fail;
        }
        double time;
        /* decimal only: strtod would also take hex (0x10), nan and inf, which are not times */
        int prc = strspn(tok[0], "0123456789.eE+-") != strlen(tok[0])
                      ? OC_EPARSE
                      : oc_parse_double(tok[0], 0, 1e15, &time);
        if (tok[0][0] == '-' && prc != OC_EPARSE) prc = OC_ERANGE;
        if (prc) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: time '%s' %s", source, lineno,
                          OC_Q(tok[0]),
                          prc == OC_EPARSE ? "is not a number"
                                           : "is out of range (0 to 1e15; negative times are "
                                             "not allowed)");
            goto fail;
        }
        if (time < last) {
            rc = oc__fail(why, whylen, OC_EPARSE,
                          "%s:%u: time %s is earlier than the line before (%g)", source, lineno,
                          tok[0], last);
            goto fail;
        }
        last = time;
        int leave;
        if (!strcmp(tok[1], "arrive"))
            leave = 0;
        else if (!strcmp(tok[1], "leave"))
            leave = 1;
        else {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: '%s' is neither arrive nor leave", source,
                          lineno, OC_Q(tok[1]));
            goto fail;
        }
        const char *id = tok[2];
        if (strlen(id) > 31) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: id '%s' is longer than 31 characters",
                          source, lineno, OC_Q(id));
            goto fail;
        }
        uint64_t g = 0;
        if (nt == 4) {
            int grc = oc_parse_u64(tok[3], 0, UINT64_MAX, &g);
            if (grc) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: GPUS '%s' is %s", source, lineno,
                              OC_Q(tok[3]),
                              tok[3][0] == '-'   ? "negative"
                              : grc == OC_ERANGE ? "out of range (more GPUs than any rack has)"
                                                 : "not a whole number of GPUs");
                goto fail;
            }
            if (g == 0) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: a tenant needs at least 1 GPU",
                              source, lineno);
                goto fail;
            }
            if (g > rack_gpus) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: %s GPUs asked, the rack has %u",
                              source, lineno, tok[3], rack_gpus);
                goto fail;
            }
        } else if (!leave) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: arrive needs GPUS (TIME arrive ID GPUS)",
                          source, lineno);
            goto fail;
        }
        size_t slot = idmap_find(&m, out, id, !leave);
        if (!leave) {
            if (m.slot[slot] >= 0) {
                rc = oc__fail(why, whylen, OC_EPARSE,
                              "%s:%u: tenant '%s' is already in the rack (arrived on line %u)",
                              source, lineno, OC_Q(id), arrived_line[m.slot[slot]]);
                goto fail;
            }
            if (out->ntenants >= OC__RACK_MAX_TENANTS) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: more than %u tenants", source, lineno,
                              OC__RACK_MAX_TENANTS);
                goto fail;
            }
            if (out->ntenants == acap &&
                oc__grow((void **)&arrived_line, &acap, out->ntenants + 1, sizeof *arrived_line))
                goto nomem;
            arrived_line[out->ntenants] = lineno;
            if (add_tenant(out, &tcap, id, (uint32_t)g, time) ||
                add_event(out, &ecap, time, 0, out->ntenants - 1))
                goto nomem;
            m.slot[slot] = (int64_t)out->ntenants - 1;
            arrivals++;
        } else {
            if (slot == SIZE_MAX) {
                rc = oc__fail(why, whylen, OC_EPARSE,
                              "%s:%u: leave of '%s', which is not in the rack", source, lineno,
                              OC_Q(id));
                goto fail;
            }
            oc__rack_tenant *x = &out->tenants[m.slot[slot]];
            if (nt == 4 && g != x->gpus) {
                rc = oc__fail(why, whylen, OC_EPARSE,
                              "%s:%u: leave of '%s' says %s GPUs, it arrived asking for %u", source,
                              lineno, OC_Q(id), OC_Q(tok[3]), x->gpus);
                goto fail;
            }
            x->leave = time;
            if (add_event(out, &ecap, time, 1, (size_t)m.slot[slot])) goto nomem;
            m.slot[slot] = -2;
        }
        if (end >= len) break;
    }
    if (!arrivals) {
        rc = oc__fail(why, whylen, OC_EPARSE, "%s: no arrivals in the trace", source);
        goto fail;
    }
    snprintf(out->source, sizeof out->source, "%s", source);
    free(m.slot);
    free(arrived_line);
    return 0;
nomem:
    rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
fail:
    free(m.slot);
    free(arrived_line);
    oc__rack_trace_free(out);
    return rc;
}

int oc__rack_trace_read(const char *path, uint32_t rack_gpus, oc__rack_trace *out, char *why,
                        size_t whylen) {
    memset(out, 0, sizeof *out);
    char *buf = NULL;
    size_t len = 0;
    int rc = oc__read_file(path, 0, NULL, &buf, &len, why, whylen);
    if (!rc) rc = oc__rack_trace_parse(buf ? buf : "", len, path, rack_gpus, out, why, whylen);
    free(buf);
    return rc;
}

/* ---- all-reduce runs, cached ---------------------------------------------------------------- */

typedef struct ar_entry {
    int fabric;
    uint32_t g, tps, fib;
    int rhd_allowed;
    oc__rack_ar ar;
} ar_entry;

typedef struct ar_cache {
    ar_entry *e;
    size_t n, cap;
    uint64_t bytes;
} ar_cache;

/* One verified run: its time. */
/* One verified all-reduce; *degraded (when not NULL) says whether the fabric had to share its
 * fibres' wavelengths or add steps (fabric.c: scarce fibres degrade a run rather than fail it). */
static int ar_run_fib(const ar_cache *c, int fabric, uint32_t g, uint32_t tps, uint32_t fib,
                      const char *algo, uint32_t radix, double *time, int *degraded, char *why,
                      size_t whylen) {
    oc__sim_req q;
    memset(&q, 0, sizeof q);
    q.coll = OC_ALLREDUCE;
    q.algo = algo;
    q.network = fabric ? "fabric" : "switch";
    q.nodes = g;
    q.bytes = c->bytes;
    q.data_check = 0;
    if (radix) snprintf(q.params, sizeof q.params, "radix=%u", radix);
    if (fabric)
        snprintf(q.net, sizeof q.net, "tiles_per_server=%u fibres_between_servers=%u", tps, fib);
    oc__sim s;
    oc_report *rep = NULL;
    int rc = oc__simulate(&q, &s, degraded ? &rep : NULL, why, whylen);
    if (rc) return rc;
    if (!s.ok)
        return oc__fail(why, whylen, OC_ETOOBIG, "rack: all-reduce %s on %u GPUs not simulated: %s",
                        algo, g, s.note);
    *time = s.time_s;
    if (degraded) {
        double shared = 0;
        *degraded = rep && oc_report_number(rep, "fibre_shared_circuits", &shared) == 0 && shared > 0;
        oc_report_free(rep);
    }
    return 0;
}

static int ar_run(const ar_cache *c, int fabric, uint32_t g, uint32_t tps, uint32_t fib,
                  const char *algo, uint32_t radix, double *time, char *why, size_t whylen) {
    return ar_run_fib(c, fabric, g, tps, fib, algo, radix, time, NULL, why, whylen);
}

static int best_ar(ar_cache *c, int fabric, uint32_t g, uint32_t tps, uint32_t fib, int rhd_allowed,
                   oc__rack_ar *out, uint64_t *runs, char *why, size_t whylen) {
    if (!is_pow(g, 2)) rhd_allowed = 0;
    if (!fabric) tps = fib = 0;
    for (size_t i = 0; i < c->n; i++) {
        const ar_entry *e = &c->e[i];
        if (e->fabric == fabric && e->g == g && e->tps == tps && e->fib == fib &&
            e->rhd_allowed == rhd_allowed) {
            *out = e->ar;
            return 0;
        }
    }
    oc__rack_ar ar = {"ring", 0, 0, 1};
    int rc;
    if (!rhd_allowed) {
        rc = ar_run(c, fabric, g, tps, fib, "ring", 0, &ar.time_s, why, whylen);
        ++*runs;
    } else {
        snprintf(ar.algo, sizeof ar.algo, "rhd");
        ar.radix = 2;
        int degraded = 0;
        rc = ar_run_fib(c, fabric, g, tps, fib, "rhd", 2, &ar.time_s, &degraded, why, whylen);
        ++*runs;
        if (!rc && degraded) {
            /* the reservation's fibres are too few for rhd's circuits, which share them: the
             * ring, one circuit per server pair, may be faster */
            double tr;
            rc = ar_run(c, fabric, g, tps, fib, "ring", 0, &tr, why, whylen);
            ++*runs;
            if (!rc && tr < ar.time_s) ar = (oc__rack_ar){"ring", 0, tr, 1};
        }
        if (rc == OC_ERESOURCE) {
            /* the fabric's check says the tenant's smallest reservation cannot carry rhd: run
             * the ring, whose one fibre per server pair that reservation covers */
            ar = (oc__rack_ar){"ring", 0, 0, 1};
            rc = ar_run(c, fabric, g, tps, 1, "ring", 0, &ar.time_s, why, whylen);
            ++*runs;
        } else if (!rc && is_pow(g, 4) && g >= 4) {
            double t4;
            rc = ar_run(c, fabric, g, tps, fib, "rhd", 4, &t4, why, whylen);
            ++*runs;
            if (rc == OC_ERESOURCE)
                rc = 0; /* radix 4 needs more than the reservation: keep radix 2 */
            else if (!rc && t4 < ar.time_s)
                ar = (oc__rack_ar){"rhd", 4, t4, 1};
        }
    }
    if (rc) return rc;
    if (c->n == c->cap && oc__grow((void **)&c->e, &c->cap, c->n + 1, sizeof *c->e))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    c->e[c->n++] = (ar_entry){fabric, g, tps, fib, rhd_allowed, ar};
    *out = ar;
    return 0;
}

/* The all-reduce of a placed tenant (see the top of the file for the layout passed). */
static int tenant_ar(ar_cache *c, oc__rack_arch arch, uint32_t g, const oc__rack_place *p,
                     oc__rack_ar *out, uint64_t *runs, char *why, size_t whylen) {
    if (arch != OC__RACK_LUMORPH) return best_ar(c, 0, g, 0, 0, 1, out, runs, why, whylen);
    /* fibres_between_servers = the tenant's smallest reservation on any of its server pairs
     * (min(c_a, c_b) is smallest where c_a is the smallest share), so the fabric's resource check
     * proves the reservation suffices on every pair; rhd that needs more falls back to the ring
     * (in best_ar), whose one fibre per pair every rhd reservation covers */
    const uint32_t tps = p->max_per_server;
    const uint32_t fib = p->servers > 1 && p->rhd_circuits ? p->min_per_server : 1;
    return best_ar(c, 1, g, tps, fib, p->rhd_circuits, out, runs, why, whylen);
}

/* ---- the replay -------------------------------------------------------------------------------
 */

void oc__rack_result_free(oc__rack_result *r) {
    if (!r) return;
    for (int a = 0; a < OC__RACK_ARCHS; a++)
        free(r->tenant[a]);
    memset(r, 0, sizeof *r);
}

/* The GPU visits the invariants' checks of one replay may take (about 0.1 s). */
#define RACK_CHECK_WORK (UINT64_C(1) << 26)

static int replay_one(const oc__rack_shape *s, const oc__rack_trace *t, oc__rack_arch arch,
                      ar_cache *cache, oc__rack_arch_result *res, oc__rack_tenant_result *tr,
                      char *why, size_t whylen) {
    oc__rack *r;
    int rc = oc__rack_new(s, arch, (uint32_t)t->ntenants, &r, why, whylen);
    if (rc) return rc;
    const double N = (double)s->servers * s->tiles;
    double in_use = 0, given = 0; /* GPUs asked for / given, now */
    double i_use = 0, i_given = 0, i_stranded = 0, sum_ar = 0;
    const uint32_t placeable = oc__rack_largest(r); /* the largest request the empty rack places */
    /* The largest slice of the architecture: lumorph's is the whole rack ("arbitrary sized ...
     * allocations given enough fibers", section 3), so a request its fibres cannot join is not
     * "too large": the free GPUs it could not have are stranded, and the rejection is counted as
     * for want of fibres (before, --fibres 0 showed such racks as unfragmented). */
    const uint32_t cap = arch == OC__RACK_LUMORPH ? (uint32_t)N : placeable;
    /* The invariants' check walks the whole rack: after every event while that stays within
     * RACK_CHECK_WORK GPU visits, else after every `every`-th event and the last (a broken
     * invariant stays broken in the owner array, so it is still caught, some events later). */
    const uint64_t walk = (uint64_t)t->nevents * ((uint64_t)s->servers * s->tiles + s->servers);
    const size_t every = (size_t)(1 + walk / RACK_CHECK_WORK);
    for (size_t i = 0; i < t->nevents; i++) {
        const oc__rack_event *e = &t->events[i];
        const oc__rack_tenant *x = &t->tenants[e->tenant];
        oc__rack_tenant_result *y = &tr[e->tenant];
        if (!e->leave) {
            res->arrivals++;
            const uint32_t free_before = oc__rack_free_gpus(r);
            char reason[sizeof y->reason] = "";
            rc = oc__rack_place_tenant(r, e->tenant, x->gpus, &y->where, reason, sizeof reason);
            if (rc < 0) {
                oc__fail(why, whylen, rc, "%s", reason);
                goto out;
            }
            if (rc == 1) {
                y->placed = 1;
                res->placed++;
                in_use += x->gpus;
                given += y->where.allocated;
                if ((rc = tenant_ar(cache, arch, x->gpus, &y->where, &y->ar, &res->runs, why,
                                    whylen)))
                    goto out;
                sum_ar += y->ar.time_s;
            } else {
                res->rejected++;
                /* fragmented only if the empty rack could have placed it: a request above cap
                 * is too large for this architecture, not a victim of fragmentation */
                if (x->gpus > cap)
                    res->rejected_too_large++;
                else if (free_before >= x->gpus && x->gpus > placeable)
                    res->rejected_no_fibres++;
                else if (free_before >= x->gpus)
                    res->rejected_fragmented++;
                snprintf(y->reason, sizeof y->reason, "%s", reason);
            }
            rc = 0;
        } else if (y->placed) {
            if ((rc = oc__rack_release(r, e->tenant))) {
                oc__fail(why, whylen, rc, "rack: cannot release tenant %s", x->id);
                goto out;
            }
            in_use -= x->gpus;
            given -= y->where.allocated;
        }
        if ((i % every == 0 || i + 1 == t->nevents) && (rc = oc__rack_check(r, why, whylen)))
            goto out;
        const double dt = i + 1 < t->nevents ? t->events[i + 1].time - e->time : 0;
        if (dt > 0) {
            i_use += dt * in_use;
            i_given += dt * given;
            const uint32_t nfree = oc__rack_free_gpus(r), want = nfree < cap ? nfree : cap;
            const uint32_t largest = oc__rack_largest(r);
            i_stranded += dt * (double)(want > largest ? want - largest : 0);
        }
    }
    const double span = t->nevents ? t->events[t->nevents - 1].time - t->events[0].time : 0;
    if (span > 0) {
        res->utilisation = i_use / (span * N);
        res->rounding = (i_given - i_use) / (span * N);
        res->idle = 1 - i_given / (span * N);
        res->stranded = i_stranded / (span * N);
    }
    res->mean_allreduce_s = res->placed ? sum_ar / (double)res->placed : 0;
out:
    oc__rack_free(r);
    return rc;
}

int oc__rack_replay(const oc__rack_shape *s, const oc__rack_trace *t, oc__rack_result *out,
                    char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    out->shape = *s;
    out->trace = t;
    int rc = oc__rack_shape_check(s, why, whylen);
    if (rc) return rc;
    if (!t->ntenants) return oc__fail(why, whylen, OC_EINVAL, "rack: the trace has no tenants");
    out->span = t->events[t->nevents - 1].time - t->events[0].time;
    /* every fraction is a time average: with no time there is nothing to average */
    if (!(out->span > 0))
        return oc__fail(why, whylen, OC_EINVAL,
                        "rack: the trace spans no time (all events at %g); fractions are time "
                        "averages",
                        t->events[0].time);
    ar_cache cache = {NULL, 0, 0, s->bytes};
    for (int a = 0; a < OC__RACK_ARCHS && !rc; a++) {
        out->tenant[a] = oc__calloc(t->ntenants, sizeof *out->tenant[a]);
        if (!out->tenant[a])
            rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        else
            rc = replay_one(s, t, (oc__rack_arch)a, &cache, &out->arch[a], out->tenant[a], why,
                            whylen);
    }
    free(cache.e);
    if (rc) oc__rack_result_free(out);
    return rc;
}

/* ---- output -----------------------------------------------------------------------------------
 */

static void arch_label(char *buf, size_t len, const oc__rack_shape *s, int a) {
    if (a == OC__RACK_SIPAC)
        snprintf(buf, len, "sipac(%u,%u)", s->sipac_r, s->sipac_l);
    else
        snprintf(buf, len, "%s", arch_names[a]);
}

static void slices_text(char *buf, size_t len, const oc__rack_shape *s, int a) {
    const uint32_t N = s->servers * s->tiles;
    if (a == OC__RACK_LUMORPH) {
        if (lumorph_cap(s) < N)
            snprintf(buf, len, "any g <= %u (no fibres: one server)", lumorph_cap(s));
        else
            snprintf(buf, len, "any g <= %u, fibres permitting", N);
    } else if (a == OC__RACK_TPU) {
        uint32_t m = 1;
        while (m * 2 <= N)
            m *= 2;
        if (N >= 2 * CUBE)
            snprintf(buf, len, "2^k in a cube; any k cubes (OCS), <= %u", N / CUBE * CUBE);
        else
            snprintf(buf, len, "aligned 2^k sub-cubes, <= %u", m);
    } else {
        uint64_t m = 1, cap = 1;
        for (uint32_t k = 0; k < s->sipac_l; k++)
            cap *= s->sipac_r;
        while (m * s->sipac_r <= N && m * s->sipac_r <= cap)
            m *= s->sipac_r;
        snprintf(buf, len, "aligned sub-BCubes %u^k, <= %llu", s->sipac_r, (unsigned long long)m);
    }
}

static void ar_text(char *buf, size_t len, const oc__rack_ar *ar) {
    char t[32];
    oc_format_seconds(t, sizeof t, ar->time_s);
    if (ar->radix)
        snprintf(buf, len, "rhd radix %u, %s", ar->radix, t);
    else
        snprintf(buf, len, "%s, %s", ar->algo, t);
}

int oc_rack_write_text(const oc_rack_result *r, int detail, FILE *f) {
    const oc__rack_shape *s = &r->shape;
    const oc__rack_trace *t = r->trace;
    char sz[32];
    oc_format_size(sz, sizeof sz, s->bytes);
    fprintf(f,
            "rack: %u servers x %u tiles = %u GPUs, %u fibres per ordered server pair; each "
            "tenant all-reduces %s\n",
            s->servers, s->tiles, s->servers * s->tiles, s->fibres, sz);
    fprintf(f, "trace: %s (%zu arrivals, %zu events, time %g to %g)\n\n", t->source, t->ntenants,
            t->nevents, t->events[0].time, t->events[t->nevents - 1].time);
    /* The slices each architecture gives, as a list: in a table their descriptions would be
     * wrapped into a column a few letters wide (tables fit the text width). Then two tables of
     * five columns each, which fit 80 columns: the tenants placed, and where the GPU time went. */
    fputs("slices:\n", f);
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        char label[32], slices[OC__CELL_LEN];
        arch_label(label, sizeof label, s, a);
        slices_text(slices, sizeof slices, s, a);
        fprintf(f, "  %-12s %s\n", label, slices);
    }
    fputc('\n', f);
    static const char *const placed_head[] = {"architecture", "placed", "rejected", "(fragmented)",
                                              "mean all-reduce"};
    static const char *const time_head[] = {"architecture", "utilisation", "rounding", "idle",
                                            "stranded"};
    oc__table tab, fractions;
    oc__table_init(&tab, 5, placed_head);
    oc__table_init(&fractions, 5, time_head);
    tab.last_is_data = fractions.last_is_data = 1; /* values, not reasons */
    int rc = 0;
    uint64_t runs = 0;
    for (int a = 0; a < OC__RACK_ARCHS && !rc; a++) {
        const oc__rack_arch_result *x = &r->arch[a];
        char c[5][OC__CELL_LEN], d[5][OC__CELL_LEN];
        arch_label(c[0], sizeof c[0], s, a);
        oc__cellf(c[1], sizeof c[1], "%llu", (unsigned long long)x->placed);
        oc__cellf(c[2], sizeof c[2], "%llu", (unsigned long long)x->rejected);
        if (x->rejected_no_fibres)
            oc__cellf(c[3], sizeof c[3], "%llu + %llu no fibres",
                      (unsigned long long)x->rejected_fragmented,
                      (unsigned long long)x->rejected_no_fibres);
        else
            oc__cellf(c[3], sizeof c[3], "%llu", (unsigned long long)x->rejected_fragmented);
        oc_format_seconds(c[4], sizeof c[4], x->mean_allreduce_s);
        oc__cellf(d[0], sizeof d[0], "%s", c[0]);
        oc__cellf(d[1], sizeof d[1], "%.1f%%", 100 * x->utilisation);
        oc__cellf(d[2], sizeof d[2], "%.1f%%", 100 * x->rounding);
        oc__cellf(d[3], sizeof d[3], "%.1f%%", 100 * x->idle);
        oc__cellf(d[4], sizeof d[4], "%.1f%%", 100 * x->stranded);
        const char *row[5], *drow[5];
        for (int k = 0; k < 5; k++)
            row[k] = c[k], drow[k] = d[k];
        if (!(rc = oc__table_row(&tab, row))) rc = oc__table_row(&fractions, drow);
        runs += x->runs;
    }
    if (!rc) {
        oc__table_print(&tab, f);
        fputc('\n', f);
        oc__table_print(&fractions, f);
    }
    oc__table_free(&fractions);
    oc__table_free(&tab);
    if (rc) return rc;
    fprintf(f,
            "\nFractions are time averages of the rack's GPUs over the trace: utilisation (GPUs "
            "asked for by\nplaced tenants) + rounding (given beyond the request) + idle (free) = "
            "100%%. stranded: free\nGPUs (up to the architecture's largest slice: lumorph's is "
            "the rack) beyond the largest request\nthe rack could place at that moment: what "
            "fragmentation, or missing fibres, makes unusable.\n(fragmented): rejected although "
            "enough GPUs were free and the empty rack could place it;\n'no fibres': lumorph "
            "rejected although enough GPUs were free, on servers its fibres cannot join.\n"
            "All-reduce: "
            "ring for g not a power of two, else the faster of rhd radix\n2 and 4 (section 3); "
            "lumorph on the fabric model with the tenant's own servers and fibres,\ntpu and sipac "
            "on the ideal switch (no contention, no reconfiguration: flatters them). Every\ntime "
            "is a verified oc_run (%llu distinct runs).\n",
            (unsigned long long)runs);
    if (!detail) return ferror(f) ? OC_EIO : 0;
    fputs("\ntenants:\n", f);
    char sipac_label[32];
    arch_label(sipac_label, sizeof sipac_label, s, OC__RACK_SIPAC);
    const char *const dhead[] = {"tenant",  "gpus", "arrive",   "leave",
                                 "lumorph", "tpu",  sipac_label};
    oc__table_init(&tab, 7, dhead);
    tab.last_is_data = 1; /* the third architecture: a placement, not a reason */
    for (size_t i = 0; i < t->ntenants && !rc; i++) {
        const oc__rack_tenant *x = &t->tenants[i];
        char c[7][OC__CELL_LEN];
        oc__cellf(c[0], sizeof c[0], "%s", x->id);
        oc__cellf(c[1], sizeof c[1], "%u", x->gpus);
        oc__cellf(c[2], sizeof c[2], "%g", x->arrive);
        if (x->leave >= 0)
            oc__cellf(c[3], sizeof c[3], "%g", x->leave);
        else
            oc__cellf(c[3], sizeof c[3], "-");
        for (int a = 0; a < OC__RACK_ARCHS; a++) {
            const oc__rack_tenant_result *y = &r->tenant[a][i];
            char art[64];
            if (!y->placed) {
                oc__cellf(c[4 + a], sizeof c[4 + a], "rejected: %s", y->reason);
                continue;
            }
            ar_text(art, sizeof art, &y->ar);
            if (a == OC__RACK_LUMORPH)
                oc__cellf(c[4 + a], sizeof c[4 + a], "%u on %u server%s%s%s, %s",
                          y->where.allocated, y->where.servers, y->where.servers > 1 ? "s" : "",
                          y->where.fibres ? " +fibres" : "",
                          y->where.servers > 1 && !y->where.rhd_circuits && is_pow(x->gpus, 2)
                              ? " (ring only)"
                              : "",
                          art);
            else
                oc__cellf(c[4 + a], sizeof c[4 + a], "%u at %u, %s", y->where.allocated,
                          y->where.first, art);
        }
        const char *row[7];
        for (int k = 0; k < 7; k++)
            row[k] = c[k];
        rc = oc__table_row(&tab, row);
    }
    if (!rc) oc__table_print(&tab, f);
    oc__table_free(&tab);
    if (rc) return rc;
    return ferror(f) ? OC_EIO : 0;
}

/* One architecture's totals, appended to the array `to`. */
static int json_arch(cJSON *to, const oc__rack_shape *s, int a, const oc__rack_arch_result *x) {
    char label[32], sl[96];
    arch_label(label, sizeof label, s, a);
    slices_text(sl, sizeof sl, s, a);
    cJSON *o = oc__json_obj(to, NULL);
    return oc__json_str(o, "name", arch_names[a]) && oc__json_str(o, "label", label) &&
           oc__json_str(o, "slices", sl) &&
           oc__json_str(o, "network", a == OC__RACK_LUMORPH ? "fabric" : "switch") &&
           oc__json_u64(o, "arrivals", x->arrivals) && oc__json_u64(o, "placed", x->placed) &&
           oc__json_u64(o, "rejected", x->rejected) &&
           oc__json_u64(o, "rejected_fragmented", x->rejected_fragmented) &&
           oc__json_u64(o, "rejected_too_large", x->rejected_too_large) &&
           oc__json_u64(o, "rejected_no_fibres", x->rejected_no_fibres) &&
           oc__json_num(o, "utilisation", x->utilisation) &&
           oc__json_num(o, "rounding_waste", x->rounding) && oc__json_num(o, "idle", x->idle) &&
           oc__json_num(o, "stranded", x->stranded) &&
           oc__json_num(o, "mean_allreduce_s", x->mean_allreduce_s) &&
           oc__json_u64(o, "runs", x->runs);
}

/* What became of one tenant on architecture a: the member arch_names[a] of `to`. */
static int json_tenant_fate(cJSON *to, int a, const oc__rack_tenant_result *y) {
    cJSON *o = oc__json_obj(to, arch_names[a]);
    if (!y->placed) return oc__json_bool(o, "placed", 0) && oc__json_str(o, "reason", y->reason);
    return oc__json_bool(o, "placed", 1) && oc__json_u64(o, "allocated", y->where.allocated) &&
           oc__json_u64(o, "first", y->where.first) &&
           oc__json_u64(o, "servers", y->where.servers) &&
           oc__json_u64(o, "fibres", y->where.fibres) && oc__json_str(o, "algorithm", y->ar.algo) &&
           oc__json_u64(o, "radix", y->ar.radix) && oc__json_num(o, "allreduce_s", y->ar.time_s) &&
           oc__json_bool(o, "verified", 1);
}

int oc_rack_write_json(const oc_rack_result *r, FILE *f) {
    const oc__rack_shape *s = &r->shape;
    const oc__rack_trace *t = r->trace;
    cJSON *root = cJSON_CreateObject(), *rack = oc__json_obj(root, "rack");
    int ok = oc__json_u64(rack, "servers", s->servers) &&
             oc__json_u64(rack, "tiles_per_server", s->tiles) &&
             oc__json_u64(rack, "gpus", (uint64_t)s->servers * s->tiles) &&
             oc__json_u64(rack, "fibres_between_servers", s->fibres) &&
             oc__json_u64(rack, "sipac_r", s->sipac_r) &&
             oc__json_u64(rack, "sipac_l", s->sipac_l) && oc__json_u64(root, "bytes", s->bytes);
    cJSON *trace = ok ? oc__json_obj(root, "trace") : NULL;
    ok = oc__json_str(trace, "source", t->source) && oc__json_u64(trace, "tenants", t->ntenants) &&
         oc__json_u64(trace, "events", t->nevents) && oc__json_num(trace, "span", r->span);
    cJSON *archs = ok ? oc__json_arr(root, "architectures") : NULL;
    ok = archs != NULL;
    for (int a = 0; ok && a < OC__RACK_ARCHS; a++)
        ok = json_arch(archs, s, a, &r->arch[a]);
    cJSON *tenants = ok ? oc__json_arr(root, "tenants") : NULL;
    ok = tenants != NULL;
    for (size_t i = 0; ok && i < t->ntenants; i++) {
        const oc__rack_tenant *x = &t->tenants[i];
        cJSON *o = oc__json_obj(tenants, NULL);
        ok = oc__json_str(o, "id", x->id) && oc__json_u64(o, "gpus", x->gpus) &&
             oc__json_num(o, "arrive", x->arrive) &&
             (x->leave >= 0 ? oc__json_num(o, "leave", x->leave) : oc__json_null(o, "leave"));
        for (int a = 0; ok && a < OC__RACK_ARCHS; a++)
            ok = json_tenant_fate(o, a, &r->tenant[a][i]);
    }
    if (!ok) {
        cJSON_Delete(root);
        root = NULL; /* oc__json_write: out of memory */
    }
    return oc__json_write(f, root, OC__JSON_SPACED, "\n");
}

/* ---- Fig. 2a ----------------------------------------------------------------------------------
 */

/* The scenario: 2 servers x 8 tiles, 2 fibres per ordered pair; User 1 holds 6 tiles of server 0
 * (ring, Fig. 2b), Users 2 and 3 hold 4 and 2 tiles of server 1; the 4 free tiles are 2 + 2 on the
 * two servers, in two different aligned 4-blocks. The same 16 chips as a TPU-like torus and as
 * SiPAC(2,4) (16 GPUs: Fig. 3's SiPAC(2,3) one level up). */
int oc_rack_fig2a(FILE *out, int *agrees_out, char *why, size_t whylen) {
    if (agrees_out) *agrees_out = 0;
    const oc__rack_shape s = {.servers = 2,
                              .tiles = 8,
                              .fibres = 2,
                              .sipac_r = 2,
                              .sipac_l = 4,
                              .bytes = UINT64_C(64) << 20};
    static const struct {
        const char *name;
        uint32_t first, count;
    } users[3] = {{"User 1", 0, 6}, {"User 2", 8, 4}, {"User 3", 12, 2}};
    const uint32_t ask = 4;
    ar_cache cache = {NULL, 0, 0, s.bytes};
    uint64_t runs = 0;
    oc__rack *r[OC__RACK_ARCHS] = {NULL, NULL, NULL};
    int rc = 0, placed[OC__RACK_ARCHS] = {0, 0, 0};
    oc__rack_place p[OC__RACK_ARCHS];
    char reason[OC__RACK_ARCHS][128];
    for (int a = 0; a < OC__RACK_ARCHS && !rc; a++) {
        if ((rc = oc__rack_new(&s, (oc__rack_arch)a, 4, &r[a], why, whylen))) break;
        for (int u = 0; u < 3 && !rc; u++)
            rc = oc__rack_occupy(r[a], (uint32_t)u, users[u].first, users[u].count, why, whylen);
        if (rc) break;
        reason[a][0] = 0;
        int ok = oc__rack_place_tenant(r[a], 3, ask, &p[a], reason[a], sizeof reason[a]);
        if (ok < 0) {
            rc = oc__fail(why, whylen, ok, "%s", reason[a]);
            break;
        }
        placed[a] = ok;
        rc = oc__rack_check(r[a], why, whylen);
    }
    if (rc) goto out;
    fputs("Fig. 2a: multi-tenant allocation (section 3)\n"
          "  paper:   \"allocating the request of four chips for User 4 is feasible with Lumorph; "
          "in existing\n"
          "           architectures, this free compute could not be utilized\" (the figure gives "
          "no numbers)\n",
          out);
    fprintf(out,
            "  rack:    %u servers x %u tiles = %u GPUs, %u fibres per ordered server pair; the "
            "same %u chips\n           as a TPU-like torus (aligned 2^a x 2^b x 2^c slices) and as "
            "SiPAC(%u,%u) (sub-BCubes of %u^k)\n",
            s.servers, s.tiles, s.servers * s.tiles, s.fibres, s.servers * s.tiles, s.sipac_r,
            s.sipac_l, s.sipac_r);
    fputs("  placed:  ", out);
    for (int u = 0; u < 3; u++) {
        oc__rack_place up = {
            .servers = 1, .max_per_server = users[u].count, .min_per_server = users[u].count};
        up.rhd_circuits = is_pow(users[u].count, 2);
        oc__rack_ar ar;
        if ((rc =
                 tenant_ar(&cache, OC__RACK_LUMORPH, users[u].count, &up, &ar, &runs, why, whylen)))
            goto out;
        char art[64];
        ar_text(art, sizeof art, &ar);
        fprintf(out, "%s%s: %u GPUs, server %u tiles %u-%u (%s)", u ? ";\n           " : "",
                users[u].name, users[u].count, users[u].first / s.tiles, users[u].first % s.tiles,
                (users[u].first + users[u].count - 1) % s.tiles, art);
    }
    fputs("\n  free:    ", out);
    uint32_t nfree = 0; /* before User 4: free now, or given to User 4 (tenant 3) */
    for (uint32_t sv = 0; sv < s.servers; sv++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t k = 0; k < s.tiles; k++) {
            const int64_t o = oc__rack_owner(r[OC__RACK_LUMORPH], sv * s.tiles + k);
            if (o >= 0 && o != 3) continue;
            if (lo == UINT32_MAX) lo = k;
            hi = k;
            nfree++;
        }
        /* the scenario's free tiles are one run per server */
        if (lo != UINT32_MAX) fprintf(out, "%sserver %u tiles %u-%u", sv ? ", " : "", sv, lo, hi);
    }
    fprintf(out, " (%u GPUs)\n  User 4 asks for %u chips:\n", nfree, ask);
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        char label[32], line[256];
        arch_label(label, sizeof label, &s, a);
        if (!placed[a]) {
            const char *shape = a == OC__RACK_TPU ? " (2x2x1)" : "";
            snprintf(line, sizeof line, "rejected: %s%s: the free chips span two aligned 4-blocks",
                     reason[a], shape);
        } else {
            oc__rack_ar ar;
            if ((rc = tenant_ar(&cache, (oc__rack_arch)a, ask, &p[a], &ar, &runs, why, whylen)))
                goto out;
            char art[64];
            ar_text(art, sizeof art, &ar);
            snprintf(line, sizeof line,
                     "placed: tiles on %u servers, %u fibres reserved (%s circuits);\n"
                     "                 all-reduce of 64 MiB: %s, verified on %s",
                     p[a].servers, p[a].fibres, p[a].rhd_circuits ? "rhd" : "ring", art,
                     a == OC__RACK_LUMORPH ? "fabric" : "switch");
        }
        fprintf(out, "    %-12s %s\n", label, line);
    }
    /* The same arrivals under each rack's own rules: the fixed-slice racks round Users 1-3 up. */
    fputs("  own rules (Users 1-4 arrive in turn, each rack placing them itself):\n", out);
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        oc__rack *q;
        if ((rc = oc__rack_new(&s, (oc__rack_arch)a, 4, &q, why, whylen))) goto out;
        char label[32];
        arch_label(label, sizeof label, &s, a);
        fprintf(out, "    %-12s", label);
        for (uint32_t u = 0; u < 4; u++) {
            const uint32_t g = u < 3 ? users[u].count : ask;
            oc__rack_place pp;
            char rs[128] = "";
            int ok = oc__rack_place_tenant(q, u, g, &pp, rs, sizeof rs);
            if (ok < 0) {
                rc = oc__fail(why, whylen, ok, "%s", rs);
                oc__rack_free(q);
                goto out;
            }
            if (ok)
                fprintf(out, " User %u: %u of %u GPUs at %u;", u + 1, pp.allocated, g, pp.first);
            else
                fprintf(out, " User %u (%u): rejected, %s;", u + 1, g, rs);
        }
        fputc('\n', out);
        rc = oc__rack_check(q, why, whylen);
        oc__rack_free(q);
        if (rc) goto out;
    }
    const int agrees = placed[OC__RACK_LUMORPH] && !placed[OC__RACK_TPU] && !placed[OC__RACK_SIPAC];
    fprintf(out,
            "  outcome: %s: lumorph joins the free tiles of two servers with circuits over spare "
            "fibres;\n           fixed slices need an aligned free block, and none of 4 is free\n",
            agrees ? "agrees with the paper" : "DIFFERS from the paper");
    if (agrees_out) *agrees_out = agrees;
    rc = ferror(out) ? OC_EIO : 0;
out:
    for (int a = 0; a < OC__RACK_ARCHS; a++)
        oc__rack_free(r[a]);
    free(cache.e);
    return rc;
}

/* ---- the public handles (opticoll_studies.h): the same trace and result, allocated ---------- */

int oc_rack_trace_read(const char *path, uint32_t rack_gpus, oc_rack_trace **out, char *why,
                       size_t whylen) {
    *out = calloc(1, sizeof **out);
    if (!*out) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    int rc = oc__rack_trace_read(path, rack_gpus, *out, why, whylen);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

int oc_rack_trace_random(uint64_t seed, uint32_t tenants, uint32_t rack_gpus, oc_rack_trace **out,
                         char *why, size_t whylen) {
    *out = calloc(1, sizeof **out);
    if (!*out) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    int rc = oc__rack_trace_random(seed, tenants, rack_gpus, *out, why, whylen);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

void oc_rack_trace_free(oc_rack_trace *t) {
    if (!t) return;
    oc__rack_trace_free(t);
    free(t);
}

int oc_rack_replay(const oc_rack_shape *s, const oc_rack_trace *t, oc_rack_result **out, char *why,
                   size_t whylen) {
    *out = calloc(1, sizeof **out);
    if (!*out) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    int rc = oc__rack_replay(s, t, *out, why, whylen);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

void oc_rack_result_free(oc_rack_result *r) {
    if (!r) return;
    oc__rack_result_free(r);
    free(r);
}
