/* The full list of operations and floors, in report order. */
#include "ops.h"

#include <stdlib.h>

#include "ops_internal.h"

typedef struct table {
    const bench_op *ops;
    const size_t *count;
} table;

static const table op_tables[] = {
    {bench_ops_nip44, &bench_ops_nip44_count},
    {bench_ops_event, &bench_ops_event_count},
    {bench_ops_msg, &bench_ops_msg_count},
    {bench_ops_negentropy, &bench_ops_negentropy_count},
    {bench_ops_pool, &bench_ops_pool_count},
    {bench_ops_nip49, &bench_ops_nip49_count},
    {bench_ops_nip44_warm, &bench_ops_nip44_warm_count},
    {bench_ops_msg_warm, &bench_ops_msg_warm_count},
};

static const table floor_tables[] = {
    {bench_floor_secp, &bench_floor_secp_count},
    {bench_floor_prims, &bench_floor_prims_count},
};

/* Flattens tables into one array built on first use by the caller (no globals mutated after
 * return: the caller owns the array). */
static bench_op *flatten(const table *t, size_t nt, size_t *n)
{
    size_t i, j, k = 0, total = 0;
    bench_op *all;

    for (i = 0; i < nt; i++) {
        total += *t[i].count;
    }
    all = malloc((total ? total : 1) * sizeof *all);
    if (all == NULL) {
        *n = 0;
        return NULL;
    }
    for (i = 0; i < nt; i++) {
        for (j = 0; j < *t[i].count; j++) {
            all[k++] = t[i].ops[j];
        }
    }
    *n = total;
    return all;
}

bench_op *bench_ops_all(size_t *n)
{
    return flatten(op_tables, sizeof op_tables / sizeof op_tables[0], n);
}

bench_op *bench_floor_all(size_t *n)
{
    return flatten(floor_tables, sizeof floor_tables / sizeof floor_tables[0], n);
}
