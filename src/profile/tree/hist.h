/* Sample aggregation: one entry per (comm, dso, symbol) key of interned ids, no per-sample allocation. */
#ifndef XPERF_REPORT_HIST_H
#define XPERF_REPORT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XPP_HIST_NO_DSO UINT32_MAX

/*
 * The values a key carries beside its frame for the sort keys that need them, each computed
 * by the profile as its row in values.c says (only when a view asks for it: 0 otherwise).
 * Context values are the sample's (the trees' first level holds them); frame values are each
 * frame's. A new sort key that needs something the profile does not yet compute adds a value
 * here and its row in values.c; the hash, the compare, the mask and the sample cache take
 * every value alike.
 */
enum xpp_val {
	XPP_VAL_THREAD,   /* context: perf's `pid` key: pid << 32 | tid */
	XPP_VAL_CPU,      /* context: the cpu, (uint32_t)-1 where the sample has none */
	XPP_VAL_PARENT,   /* context: perf's `parent`: 1 + a string id of the name, 0 [other] */
	XPP_VAL_TIME,     /* context: the sample's time cut to the --time-quantum */
	XPP_VAL_SOCKET,   /* context: the cpu's socket (CPU_TOPOLOGY), (uint32_t)-1 unknown */
	XPP_VAL_CGROUP,   /* context: the sample's cgroup id (PERF_SAMPLE_CGROUP), 0 none */
	XPP_VAL_CGROUP_NS, /* context: its thread's cgroup namespace (NAMESPACES records):
			      dev << 40 | inode (low 40 bits), 0 none */
	XPP_VAL_IP,       /* frame: the frame's virtual address (perf's `addr`) */
	XPP_VAL_SYM_SIZE, /* frame: its symbol's size + 1, 0 without a symbol */
	XPP_VAL_MAP_SIZE, /* frame: the size of the map that held it, 0 without one */
	XPP_VAL_SRCFILE,  /* frame: 1 + a string id of its source file ("" unknown) */
	/* report --mem-mode's (perf's mem_info): the sample's data address and source */
	XPP_VAL_WEIGHT,   /* context: the sample's weight (WEIGHT, WEIGHT_STRUCT's var1), 0 none */
	XPP_VAL_INS_LAT,  /* context: its instruction latency (WEIGHT_STRUCT's var2), 0 none */
	XPP_VAL_MEM_LVL,  /* context: its DATA_SRC's level fields (mem_lvl, lvl_num, remote,
			     hops), as the word holds them */
	XPP_VAL_MEM_SNOOP, /* context: DATA_SRC's snoop and snoopx fields */
	XPP_VAL_MEM_TLB,  /* context: DATA_SRC's dtlb field */
	XPP_VAL_MEM_LOCK, /* context: DATA_SRC's lock field */
	XPP_VAL_MEM_BLK,  /* context: DATA_SRC's blk field */
	XPP_VAL_PHYS,     /* context: its PHYS_ADDR, 0 none */
	XPP_VAL_DADDR,    /* context: its data address (PERF_SAMPLE_ADDR), 0 none; where
			     it was found: xpp_profile_val_first() */
	XPP_VAL_DADDR_DSO, /* context: 1 + the dso of that map, 0 none */
	XPP_VAL_DATA_PAGE_SIZE, /* context: the page size at it (DATA_PAGE_SIZE), 0 none */
	XPP_VAL_DCACHELINE, /* context: 1 + a string id of what perf's dcacheline key compares
			       (values.c dcacheline_of(): its order is strcmp's); where it was
			       found: xpp_profile_val_first() */
	XPP_VAL_NR
};

/*
 * What a sample is charged to. All fields are ids: comm an intern id, dso a dso_table id
 * (XPP_HIST_NO_DSO when no map held the ip), sym an index in that DSO's symtab or -1, in which
 * case addr is the address shown instead. Unused fields must be zero (keys are compared
 * whole), so build keys with xpp_hist_key_init().
 *
 * inl and srcline are 0 unless inline frames or source lines were asked for; both are
 * 1 + an id in the profile's string table (xpp_profile_str()). A frame with inl is the
 * function of that name inlined into sym (perf's "name (inlined)"). srcline is the frame's
 * "file:line", or with XPP_SRCLINE_FALLBACK perf's stand-in where no line is known
 * ("sym+offset"; call graphs show "??:0" there). XPP_SRCLINE_FALLBACK alone is a stand-in
 * without its string (chains compare them alike; xpp_opts.no_line_fallbacks makes no
 * string), which xpp_profile_srcline() reads as "??:0".
 */
struct xpp_hist_key {
	uint64_t addr;
	uint32_t comm;
	uint32_t dso;
	int32_t sym;
	uint32_t level;   /* perf's level char: '.' user, 'k' kernel, 'g', 'u', 'H' */
	uint32_t inl;
	uint32_t srcline;
	uint64_t val[XPP_VAL_NR]; /* enum xpp_val, 0 unless its sort key was asked for */
};

#define XPP_SRCLINE_FALLBACK (1u << 31)

/* A key with its counts, as a value (the hist stores its entries as struct xpp_hist_rec). */
struct xpp_hist_entry {
	struct xpp_hist_key key;
	uint64_t period;
	uint64_t nr_samples;
};

/*
 * An entry as the hist stores it: the key's fields but its values, which a row apart holds
 * when any is set (issue 20: a key is 216 bytes, most of them values no view asked for,
 * and a profile of unresolved addresses holds a million frames and as many entries; a rec
 * is 48, its level a byte beside the row's number). Read the fields here, the whole key
 * with xpp_hist_key_at().
 */
struct xpp_hist_rec {
	uint64_t addr;
	uint64_t period;
	uint64_t nr_samples;
	uint32_t comm;
	uint32_t dso;
	int32_t sym;
	uint32_t level : 8; /* a char (struct xpp_hist_key's level) */
	uint32_t vals : 24; /* 0: every value is 0, else 1 + the row of the hist's values,
			       one per distinct set, shared by the keys that have it (below
			       XPP_HIST_VALS_MAX: a hist of more distinct sets is refused,
			       -ENOMEM, past 2.9 GB of them) */
	uint32_t inl;
	uint32_t srcline;
};

#define XPP_HIST_VALS_MAX ((1u << 24) - 1)

static inline void xpp_hist_key_init(struct xpp_hist_key *k)
{
	k->addr = 0;
	k->comm = 0;
	k->dso = XPP_HIST_NO_DSO;
	k->sym = -1;
	k->level = '.';
	k->inl = 0;
	k->srcline = 0;
	for (int i = 0; i < XPP_VAL_NR; i++)
		k->val[i] = 0;
}

/* Which key fields count; the others are erased by xpp_hist_collapse(). */
#define XPP_HIST_KEY_COMM (1u << 0)
#define XPP_HIST_KEY_DSO  (1u << 1)
#define XPP_HIST_KEY_SYM  (1u << 2)     /* the symbol, and the inlined function */
#define XPP_HIST_KEY_SRCLINE (1u << 3)
#define XPP_HIST_KEY_VAL(v) (1u << (8 + (v))) /* value v (enum xpp_val) */
#define XPP_HIST_KEY_PID  XPP_HIST_KEY_VAL(XPP_VAL_THREAD) /* the thread: pid and tid */
#define XPP_HIST_KEY_CPU  XPP_HIST_KEY_VAL(XPP_VAL_CPU)
#define XPP_HIST_KEY_PARENT XPP_HIST_KEY_VAL(XPP_VAL_PARENT)
_Static_assert(8 + XPP_VAL_NR <= 32, "the values' bits fit the key masks");

typedef struct xpp_hist xpp_hist;

xpp_hist *xpp_hist_create(void);
void xpp_hist_free(xpp_hist *h);

/* Charge `period` and `nr` samples to key k. 0 or -ENOMEM. */
int xpp_hist_add(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr);

/* The same, returning the entry's index in xpp_hist_recs() (stable: entries never move
 * between indexes), or -ENOMEM. Interns keys: xpp_hist_add_id(h, k, 0, 0) is a lookup-or-add. */
int64_t xpp_hist_add_id(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr);

/*
 * Key k as a new entry, not looked up: the caller knows no entry has it (its index, or
 * -ENOMEM). Without an index (a new or frozen hist) it goes in none: the next add or find
 * builds it from the entries (issue 20: a view of a million unresolved frames knows each
 * is a new entry, and its lookup was a cache miss in a table that kept growing).
 */
int64_t xpp_hist_append(xpp_hist *h, const struct xpp_hist_key *k);

/* A hint: key k is looked up or added soon (readers of many new keys overlap the misses). */
void xpp_hist_prefetch(const xpp_hist *h, const struct xpp_hist_key *k);

/* The index of key k's entry, or -1 when it has none. */
int64_t xpp_hist_find(const xpp_hist *h, const struct xpp_hist_key *k);

/*
 * No more keys for now: drop the index (4 to 8 bytes an entry; 16 MB for a million).
 * Entries stay; the next add or find builds the index again.
 */
void xpp_hist_freeze(xpp_hist *h);

/*
 * Drop every entry and row of values: the next key added is entry 0 again. The memory
 * stays for the next entries (a table that holds a window of keys at a time, as a view
 * that prints each sample and forgets it: issue 20, is cleared when full, not regrown).
 */
void xpp_hist_clear(xpp_hist *h);

/* The entries, contiguous, in first-seen order; valid until the next xpp_hist_add(). */
struct xpp_hist_rec *xpp_hist_recs(const xpp_hist *h, size_t *nr);

/* The number of entries. */
size_t xpp_hist_nr(const xpp_hist *h);

/* The rows of values it holds: one per distinct set of values its keys have (memory). */
size_t xpp_hist_nr_val_rows(const xpp_hist *h);

/* Entry i's key (i < xpp_hist_nr()), whole. */
struct xpp_hist_key xpp_hist_key_at(const xpp_hist *h, size_t i);

/*
 * Entry i's key into *k, as xpp_hist_key_at() gives it, for readers of many keys (a sort
 * compares two for every pair): k's values are written only where entry i has any or
 * `vals_set` says k's are not all 0 (a key is 216 bytes, of them 176 values). Returns
 * whether k's values are set now: the next call's vals_set.
 */
bool xpp_hist_key_load(const xpp_hist *h, size_t i, struct xpp_hist_key *k, bool vals_set);

/* Entry i's key with its counts. */
struct xpp_hist_entry xpp_hist_entry_at(const xpp_hist *h, size_t i);

/* Value v (enum xpp_val) of entry i's key. */
uint64_t xpp_hist_val_at(const xpp_hist *h, size_t i, int v);

/* Multiply every entry's period and count by num/den, rounding down (den 0: zero them); the
 * entries stay, with their ids. */
void xpp_hist_scale(xpp_hist *h, uint32_t num, uint32_t den);

/* Keep only the fields of k in `keys` (XPP_HIST_KEY_*), as xpp_hist_collapse() does. */
void xpp_hist_key_mask(struct xpp_hist_key *k, unsigned int keys);

/* Whether masking every key of h with `keys` leaves it as it is (xpp_hist_key_mask()). */
bool xpp_hist_mask_keeps(const xpp_hist *h, unsigned int keys);

/*
 * A new hist whose keys keep only the fields in `keys` (HIST_KEY_*): entries that then
 * look the same are merged. A symbol stays tied to its DSO (a symbol index means nothing
 * alone). NULL on ENOMEM.
 */
xpp_hist *xpp_hist_collapse(const xpp_hist *h, unsigned int keys);

#endif
