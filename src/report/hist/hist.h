/* Sample aggregation: one entry per (comm, dso, symbol) key of interned ids, no per-sample allocation. */
#ifndef XPERF_REPORT_HIST_H
#define XPERF_REPORT_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_NO_DSO UINT32_MAX

/*
 * What a sample is charged to. All fields are ids: comm an intern id, dso a dso_table id
 * (HIST_NO_DSO when no map held the ip), sym an index in that DSO's symtab or -1, in which
 * case addr is the address shown instead. Unused fields must be zero (keys are compared
 * whole), so build keys with hist_key_init().
 */
struct hist_key {
	uint64_t addr;
	uint32_t comm;
	uint32_t dso;
	int32_t sym;
	uint32_t level;   /* perf's level char: '.' user, 'k' kernel, 'g', 'u', 'H' */
};

struct hist_entry {
	struct hist_key key;
	uint64_t period;
	uint64_t nr_samples;
};

static inline void hist_key_init(struct hist_key *k)
{
	k->addr = 0;
	k->comm = 0;
	k->dso = HIST_NO_DSO;
	k->sym = -1;
	k->level = '.';
}

/* Which key fields count; the others are erased by hist_collapse(). */
#define HIST_KEY_COMM (1u << 0)
#define HIST_KEY_DSO  (1u << 1)
#define HIST_KEY_SYM  (1u << 2)

typedef struct hist hist;

hist *hist_create(void);
void hist_free(hist *h);

/* Charge `period` and `nr` samples to key k. 0 or -ENOMEM. */
int hist_add(hist *h, const struct hist_key *k, uint64_t period, uint64_t nr);

/* The same, returning the entry's index in hist_entries() (stable: entries never move
 * between indexes), or -ENOMEM. Interns keys: hist_add_id(h, k, 0, 0) is a lookup-or-add. */
int64_t hist_add_id(hist *h, const struct hist_key *k, uint64_t period, uint64_t nr);

/* The entries, contiguous, in first-seen order; valid until the next hist_add(). */
struct hist_entry *hist_entries(const hist *h, size_t *nr);

/*
 * A new hist whose keys keep only the fields in `keys` (HIST_KEY_*): entries that then
 * look the same are merged. A symbol stays tied to its DSO (a symbol index means nothing
 * alone). NULL on ENOMEM.
 */
hist *hist_collapse(const hist *h, unsigned int keys);

#endif
