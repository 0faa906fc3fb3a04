/* What the symbolised views (stdio, TUI) share: sort keys, names, an event's entries and their chains. */
#ifndef XPERF_VIEW_RV_H
#define XPERF_VIEW_RV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/xpf_reader.h"
#include "profile/profile.h"
#include "view/opts.h"

/*
 * The sort keys (perf's --sort), a row each in sort_keys.c's table rv_keys[], in the order
 * of that table. A view's columns hold these ids.
 */
enum rv_key_id {
	RV_KEY_COMM,
	RV_KEY_DSO,
	RV_KEY_SYM,
	RV_KEY_SRCLINE,
	RV_KEY_PID,
	RV_KEY_CPU,
	RV_KEY_PARENT,
	RV_KEY_SRCFILE,
	RV_KEY_SYM_SIZE,
	RV_KEY_DSO_SIZE,
	RV_KEY_TIME,
	RV_KEY_ADDR,
	RV_KEY_SOCKET,
	RV_KEY_CGROUP,
	RV_KEY_CGROUP_ID,
	RV_KEY_IPC_NULL,
	RV_KEY_LOCAL_WEIGHT,
	RV_KEY_LOCAL_INS_LAT,
	/* report --mem-mode's (mem_only) */
	RV_KEY_DADDR,
	RV_KEY_DADDR_DSO,
	RV_KEY_MEM_LOCKED,
	RV_KEY_MEM_TLB,
	RV_KEY_MEM_LVL,
	RV_KEY_MEM_SNOOP,
	RV_KEY_DCACHELINE,
	RV_KEY_PHYS_DADDR,
	RV_KEY_DATA_PAGE_SIZE,
	RV_KEY_MEM_BLOCKED,
	RV_KEY_NR
};

struct rv_ctx;

/*
 * One sort key, as perf's struct sort_entry: its name, column title and width, what the
 * profile must compute for it (`fields`: the hist key's fields and values it reads, which
 * entries keep and the profile fills, values.h), how entries compare and print. The hash of
 * entries and the sample cache take whatever fields the rows name, so a key is one row.
 */
struct rv_key {
	const char *name;       /* --sort NAME; NULL: not a --sort key (added by perf's rules) */
	const char *help;       /* what --help says of it after its name ("(HELP)"); NULL: nothing */
	const char *title;
	unsigned int fields;    /* XPP_HIST_KEY_* */
	int width;              /* > 0: the column is this wide; 0: as wide as its title and
				   widest value */
	bool children_each;     /* perf's children count a sample once per frame of its chain
				   in the key's entries (its check for repeated entries does
				   not see the key's value) */
	int align;              /* RV_LEFT, RV_RIGHT, or RV_CUT: perf's "%-.*s", cut to the
				   width, not padded */
	bool mem_only;          /* perf's memory keys: --sort takes them with --mem-mode only */
	/* perf's se_sort, where the output's order differs from cmp's: entries it finds
	   equal are ordered by the next keys, and only then by cmp (rv_cmp_keys()) */
	int (*sort)(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b);
	int (*cmp)(const struct rv_ctx *c, const struct xpp_hist_key *a,
		   const struct xpp_hist_key *b);
	/* perf's se_cmp where it differs from cmp: the order perf collapses its entries in,
	   which its output keeps for entries its sort finds equal (NULL: cmp's) */
	int (*collapse)(const struct rv_ctx *c, const struct xpp_hist_key *a,
			const struct xpp_hist_key *b);
	/* the width a value asks of the column where it differs from its text's (perf's
	   hists__calc_col_len()); RV_WIDTH_UNRESOLVED: perf's unresolved DSO (22 columns
	   unless a wider value came); NULL: the text's */
	int (*width_of)(const struct rv_ctx *c, const struct xpp_hist_key *k);
	/* the value's text, unpadded (buf may hold it) */
	const char *(*text)(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			    size_t size);
};

extern const struct rv_key rv_keys[RV_KEY_NR];

enum { RV_LEFT, RV_RIGHT, RV_CUT };

/* perf 6.1's default sort order of --mem-mode (local_p_stage_cyc left out: powerpc only) */
#define RV_MEM_SORT "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked," \
		    "local_ins_lat"

#define RV_MAX_COLS RV_KEY_NR /* a view shows each key once at most (add_col() checks) */

/*
 * perf's output fields (-F) beside the sort keys: values above every XPP_HIST_KEY_* bit.
 * The percentages are of the event's total; overhead is the entry's own period (perf's
 * "Self" with children), sys/usr and guest its own period split by the samples' cpumode,
 * sample its own samples, period its own period.
 */
enum rv_metric {
	RV_OUT_OVERHEAD = 1 << 16,
	RV_OUT_SYS,
	RV_OUT_US,
	RV_OUT_GUEST_SYS,
	RV_OUT_GUEST_US,
	RV_OUT_CHILDREN,
	RV_OUT_SAMPLE,
	RV_OUT_PERIOD,
};
/* every metric and every key, each once at most (-F and rv_cols_init() keep them so) */
#define RV_MAX_OUT (RV_OUT_PERIOD - RV_OUT_OVERHEAD + 1 + RV_KEY_NR)

/*
 * A view of one profile: the options (the shared struct view_opts, view/opts.h), the
 * profile's results (borrowed pointers) and how to show them.
 */
struct rv_ctx {
	const struct view_opts *o;
	const xpp_profile *p;
	xpf_reader *r;
	xpp_dso_table *dsos;
	const xpp_intern *comms;
	const struct xpp_event *ev;
	uint32_t nr_ev;
	uint64_t lost_samples;
	unsigned int cols[RV_MAX_COLS]; /* XPP_HIST_KEY_* in column order (--sort) */
	unsigned int nr_cols;
	/* with -F (nr_fields > 0): the output columns (RV_OUT_* and keys) in order, and
	   perf's sort list for them (-s keys first, then the fields) */
	unsigned int fields[RV_MAX_OUT], nr_fields;
	unsigned int sort[RV_MAX_OUT], nr_sort;
	const struct xpp_name_list *comm_filter, *dso_filter, *sym_filter; /* -c, -d, -S */
	/* perf's "Sort order" line of --mem-mode: the keys asked (its default, or --sort
	   with the ipc_null it adds) */
	char sort_order[256];
	bool callchains;       /* some attr samples PERF_SAMPLE_CALLCHAIN */
	bool children;         /* --children in effect */
	struct report_call_graph cg; /* set, perf's defaults filled in */
};

/* ---- setup (setup.c) ---- */

/*
 * Parse o's --sort and -g into c (c->o = o) and fill the profile's options from o. 0, or
 * -EINVAL after printing the usage error with cli_error().
 */
int rv_ctx_parse(struct rv_ctx *c, const struct view_opts *o, struct xpp_opts *po);
/*
 * What every view of every reading command (report's modes and exports, script, annotate)
 * takes alike from o into the profile's options, the one place they are copied: which
 * samples (--comms, --dsos, --pid, --tid, --cpu, --time, -S, --hide-unresolved, -x with
 * -p), where code and symbols are found (kallsyms and its cache, debug files, symfs,
 * perf's build-id cache), demangling, inlines, --max-stack and --wall (a command without
 * one of these leaves it at view_opts_init()'s default). The view sets what only it needs
 * (order, children, lines) after.
 */
void rv_lookup_opts(const struct view_opts *o, struct xpp_opts *po);
/* Take the results of p (after xpp_profile_run()) into c. */
void rv_ctx_take(struct rv_ctx *c, const xpp_profile *p, xpf_reader *r);
/* perf's convert_unit(): 1696 -> "1K", 500 -> "500 " (a blank where the unit would be) */
void rv_count_str(uint64_t v, char *buf, size_t size);

/* ---- --wall (wall.c) ---- */

/* An on-CPU event whose period is nanoseconds: cpu-clock or task-clock. */
bool rv_is_clock(const struct xpf_attr *a);
/* perf 6.1's off-CPU event (and xperf record --off-cpu's): period in nanoseconds. */
bool rv_is_offcpu(const struct xpf_attr *a);

/*
 * The profile's event_into for --wall: cpu-clock, task-clock and offcpu-time samples count
 * in the first clock event (all are nanoseconds), other events are left out.
 */
int64_t rv_wall_into(xpf_reader *r, uint32_t idx);
/* 0 when r has a clock event and offcpu-time, else -1 after printing why and the fix. */
int rv_wall_check(xpf_reader *r);
/* The name a view shows for event idx: its own, or with --wall "cpu-clock + offcpu-time". */
const char *rv_event_name(const struct rv_ctx *c, uint32_t idx, char *buf, size_t size);

/* ---- the sort keys' table (sort_keys.c) ---- */

/* The key named s[0..n) (perf's names and their prefixes, as perf matches them), or -1. */
int rv_key_find(const char *s, size_t n);
/* perf's --sort keys, comma-separated, into buf (for messages): buf */
const char *rv_key_names(char *buf, size_t size);
/* The hist key fields (XPP_HIST_KEY_*) the columns of c read. */
unsigned int rv_key_fields(const struct rv_ctx *c);

/* ---- keys and columns (keys.c) ---- */

/* The columns a view shows (a filter down to one name drops its column) and their widths. */
struct rv_cols {
	const struct rv_ctx *c;
	unsigned int cols[RV_MAX_COLS], nr_cols;
	int width[RV_MAX_COLS];
	/* what the stdio lines show, in order: metrics (RV_OUT_*) and the keys of cols[] */
	unsigned int out[RV_MAX_OUT], nr_out;
};

#define RV_UNRESOLVED_WIDTH 16 /* hex digits of an unresolved address, as perf prints them */
#define RV_WIDTH_UNRESOLVED (-1)

void rv_cols_init(struct rv_cols *v, const struct rv_ctx *c);
/* perf's widths: each column as wide as its title and its widest value among the entries
 * rows[0..n) of h (h's first n entries when rows is NULL). */
void rv_widths(struct rv_cols *v, const xpp_hist *h, const uint32_t *rows, size_t n);
const char *rv_col_title(unsigned int key);
/*
 * The one name a filter (-c, -d, -S) leaves column col, with what the column is ("comm",
 * "dso", "symbol") in *what; NULL where the column has no such filter. perf's sort
 * setup drops the column, and its stdio view says "# comm: NAME" above the report.
 */
const char *rv_col_filtered_to(const struct rv_ctx *c, unsigned int col, const char **what);
/* An output column's title (metrics too) and width (a key's: its cols[] width). */
const char *rv_out_title(const struct rv_cols *v, unsigned int col);
int rv_out_width(const struct rv_cols *v, unsigned int col);
/* How entries of one key column compare, as perf sorts them (< 0: a first). */
int rv_cmp_col(const struct rv_ctx *c, const struct xpp_hist_key *a,
	       const struct xpp_hist_key *b, unsigned int col);
/* Key col's order as perf collapses entries (rv_key.collapse, else cmp). */
int rv_collapse_col(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b, unsigned int col);
/* perf's hist_entry__sort() over the keys alone (each key's sort, else cmp): 0 on a tie. */
int rv_sort_keys(const struct xpp_hist_key *a, const struct xpp_hist_key *b,
		 const struct rv_cols *v);
int rv_cmp_keys(const struct xpp_hist_key *a, const struct xpp_hist_key *b,
		const struct rv_cols *v);
/*
 * Per row i of rows[0..n) of h, in rank[i], a number whose order is that of the view's keys
 * (v->cols): rv_sort_keys()'s (numbers below 2^32), or with `collapse` rv_cmp_keys()'s;
 * rows they find equal have one number (key_rank.c). 0; 1 where the keys have no such
 * numbers (a key it does not know, or comparisons that are no order over these rows: sort
 * by the keys then); -ENOMEM.
 */
int rv_key_ranks(const struct rv_cols *v, const xpp_hist *h, const uint32_t *rows, size_t n,
		 bool collapse, uint64_t *rank);
/* v[0..n) as their ranks (0 the least) where they are few (65536 values at most): 0, 1
 * where they are more, -ENOMEM. */
int rv_rank_few(uint64_t *v, size_t n);
/* In cur[0..n), a number ordering as the pairs (cur[i], nxt[i]), both side by side where
 * they fit 64 bits: 0, 1 where they do not (cur as it was), -ENOMEM. */
int rv_rank_pack(uint64_t *cur, const uint64_t *nxt, size_t n);

const char *rv_comm_name(const struct rv_ctx *c, const struct xpp_hist_key *k);
const char *rv_dso_name(const struct rv_ctx *c, const struct xpp_hist_key *k);
/* NULL when the key has no symbol (an address) */
const char *rv_sym_name(const struct rv_ctx *c, const struct xpp_hist_key *k);
/* The Source:Line column's text ("??:0" unknown). */
const char *rv_srcline_name(const struct rv_ctx *c, const struct xpp_hist_key *k);
/*
 * The text of a column but the symbol's (comm, dso, srcline, pid, cpu, parent) as perf
 * prints it before padding: "%7d:comm" for pid, "%3.3d" for cpu, "[other]" for no parent.
 */
const char *rv_col_text(const struct rv_ctx *c, const struct xpp_hist_key *k, unsigned int col,
			char *buf, size_t size);

/* The symbol, or perf's "0x..." of the address (16 digits, no 0x for zero), in buf. */
const char *rv_sym_or_addr(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			   size_t size);

/* The key of frame id f (a call-tree key below the comm) as a hist key of command comm. */
struct xpp_hist_key rv_frame_key(const struct rv_ctx *c, uint32_t comm, uint32_t f);
/* A frame's name as the graphs show it: the symbol, or the address as %#x. */
const char *rv_frame_name(const struct rv_ctx *c, uint32_t f, char *buf, size_t size);

/* ---- an event's entries (entries.c) ---- */

/*
 * One distinct call path of the event tree, read from the tree when needed (its frames are
 * the tree's keys from `node` up to the comm, see rv_path_frames()): 32 bytes a path
 * whatever its depth, so that a million distinct paths fit (issue 11).
 */
struct rv_path {
	uint32_t node;       /* its innermost frame's node (the comm's when it has none) */
	uint32_t self_entry; /* the entry its samples' self time goes to */
	uint32_t own;        /* their own entry's frame when apart (see struct xpp_event's
				own), else UINT32_MAX */
	uint64_t period, count;
};

/* (comm, frame) -> entry: one hash lookup per frame of every path, so kept small and near */
struct rv_entry_map {
	uint64_t *key;       /* comm << 32 | frame, + 1 (0: empty) */
	uint32_t *entry;
	uint32_t nr, nslots;
};

/*
 * One event's entries as perf lists them. With call chains in the view (children, or the
 * chains ending in each entry), entries come from the event's call tree: their period in
 * `h` is the children's, `self` their own. Otherwise from the flat hist (self == period).
 * Entry ids index h's entries and the per-entry arrays; `rows` holds the ids a view lists
 * (with chains: entries with children or self as the view needs, in a --dsos DSO), in
 * perf's order. Everything is read-only once built.
 */
struct rv_entries {
	const struct rv_ctx *c;
	const struct xpp_event *ev;
	bool chains;
	xpp_hist *h;                 /* keys collapsed to the --sort keys */
	uint64_t *self, *self_count; /* per entry */
	uint64_t *mode_period[4];    /* per entry, with -F asking: its own period in kernel,
					user, guest kernel, guest user mode, else NULL */
	uint64_t *addr;              /* per entry, with -v: its first sample's address, as
					perf's he->ip (UINT64_MAX unknown), else NULL */
	uint8_t *level;              /* per entry: what [.]/[k] shows */
	uint32_t *rows;
	size_t nr_rows;
	uint64_t min_hit;            /* the -g threshold as a period */
	unsigned int ctx_vals;       /* the context values (values.h) of the view's keys */
	/* with chains */
	struct rv_path *paths;
	uint32_t nr_paths, maxdepth; /* maxdepth: frames of the longest path */
	bool self_only;              /* no children shown: the entries are the paths' own
					entries only, each with the paths that end there */
	size_t *pair_off;            /* per entry: the paths that meet it (each once) are */
	uint32_t *order;             /* order[pair_off[e]..pair_off[e + 1]); both NULL with
					-g none (no graph to make of them) */
	struct rv_entry_map map;     /* the other commands' */
	uint32_t *dense, dense_comm; /* per frame id: its entry + 1 (0 unknown) in the paths
					of command dense_comm (the first met) */
	struct xpp_hist_key fkey;    /* scratch: a frame's key (frame_key()) */
	bool fkey_vals;              /* whether its values may be set */
	bool fresh;                  /* every entry so far is a frame's of dense_comm, and
					distinct frames make distinct entries: a frame dense
					does not know makes a new one, not looked up */
	size_t dense_cap;
	uint32_t *stamp;             /* per entry: the last path that met it, + 1 */
	uint32_t *depth;             /* per entry, with children: perf's callchain max_depth */
	uint32_t *first_path;        /* per entry, with depth: the path of its first sample, + 1
					(its thread is the entry's, perf's hist_entry->thread) */
	uint32_t *first_pos;         /* per entry, with depth: where that sample made it (0 its
					own entry, then 1 + the frame's place in perf's cursor) */
	size_t cap_entries, nr_zeroed; /* of the per-entry arrays: room, entries set to 0 */
	uint32_t *pathbuf, *fentry;  /* scratch: one path's keys, its entries */
	/* with graphs: every path's keys (comm, then frames) read once from the tree, as
	   each printed entry reads its paths again (issue 20: a path met by 10 entries was
	   read 10 times, its nodes scattered over the tree) */
	uint32_t *pkeys;             /* path p's are pkeys[pkey_off[p]..pkey_off[p + 1]) */
	uint32_t *pkey_off;          /* per path + 1, NULL without the keys kept */
	uint32_t nr_pkeys;           /* paths read into pkeys so far */
	uint64_t nr_keys;            /* the keys of every path (collect_paths()) */
	uint8_t *pathlev;            /* scratch: the levels of a path's entries (cursor_levels()) */
	/* frames as chains tell them apart (rv_entry_chains()), filled as chains are built */
	xpp_hist *chain_keys;
	uint32_t *chain_rep;         /* per chain key: the first frame id with it, + 1 */
	uint32_t *frame_rep;         /* per frame id: its chain key's frame + 1, 0 unknown */
	uint64_t *frame_self;        /* per frame id, a bit: the frame stands for itself */
	size_t rep_cap, frame_cap, self_cap;
};

/*
 * Path p's frames, outermost first, from the event tree: into buf (room for g->maxdepth + 1
 * ids) or from g->pkeys when kept, returned (past the comm, which goes to *comm), *n of them.
 */
const uint32_t *rv_path_frames(const struct rv_entries *g, uint32_t p, uint32_t *buf,
			       uint32_t *n, uint32_t *comm);

/* Whether event idx is shown with chains (the call-graph layout). */
bool rv_event_chains(const struct rv_ctx *c, uint32_t idx);

/* Build event idx's entries into g. 0 or -ENOMEM (g is then freed). */
int rv_entries_build(struct rv_entries *g, const struct rv_ctx *c, uint32_t idx);
/*
 * The same for a view that shows the first `limit` rows only (0: all): g->rows holds
 * those, as the full sort orders them, the others are not sorted (top's refresh: a
 * selection of the hottest, then a sort of those, for tens of thousands of entries).
 */
int rv_entries_build_top(struct rv_entries *g, const struct rv_ctx *c, uint32_t idx,
			 size_t limit);
void rv_entries_free(struct rv_entries *g);

/*
 * perf's __hpp__sort_acc for entries a and b of equal children: of one command and context,
 * sorted by symbol, the caller (the deeper chain in caller order) first: < 0 when a goes
 * first, > 0 when b does, 0 when it does not tell.
 */
int rv_entry_cmp_depth(const struct rv_entries *g, uint32_t a, uint32_t b);

/* Entry e's key as a view shows it (with its level). */
struct xpp_hist_key rv_entry_key(const struct rv_entries *g, uint32_t e);
/* Entry e's children period and sample count (its own when the view has no children). */
uint64_t rv_entry_period(const struct rv_entries *g, uint32_t e);
/*
 * -v: perf's "%-#18llx %c " before entry e's symbol (its first sample's address and where
 * the symbols came from) into buf; NULL without -v.
 */
const char *rv_entry_sym_prefix(const struct rv_entries *g, uint32_t e, char *buf,
				size_t size);
#define RV_VERBOSE_SYM_WIDTH 21 /* what that prefix adds to the Symbol column */

/* Entry e's value of metric col (RV_OUT_*): a period, or a count for RV_OUT_SAMPLE. */
uint64_t rv_entry_metric(const struct rv_entries *g, uint32_t e, unsigned int col);

/*
 * The chains of entry e (with chains only) into t (reset first), in the order perf shows
 * them: caller order from the entry down to the leaves, callee order from the entry up;
 * frames that chains do not tell apart (equal but for a source line they do not show) as
 * one. seq is scratch of g->maxdepth + 1 ids. 0 or -ENOMEM.
 */
int rv_entry_chains(struct rv_entries *g, uint32_t e, xpp_callgraph *t, uint32_t *seq);
/*
 * The same, but of the nodes that hold min_hit at least (rv_chain_kids()' threshold, which
 * graph, flat and folded print above) only: a node's children below it are left out and
 * their sum charged to it as hidden (xpp_cg_add_hidden()), so that its totals and runs
 * (rv_chain_run_end()) are the whole graph's. Made a level at a time from the entry's
 * chains, so that an outermost caller's graph of a million paths, of which a few lines are
 * printed, costs its chains, not a million nodes (issue 20). 0 or -ENOMEM.
 */
int rv_entry_chains_above(struct rv_entries *g, uint32_t e, xpp_callgraph *t, uint32_t *seq,
			  uint64_t min_hit);

/*
 * The children of node id of a chain tree with at least g->min_hit (fractal: the threshold
 * of the node's callees), most first, ties as perf orders them: a new array of *nr ids (free it), NULL on ENOMEM.
 */
uint32_t *rv_chain_kids(const struct rv_entries *g, const xpp_callgraph *t, uint32_t id,
			uint32_t *nr);

/*
 * All children of node id, in the order perf keeps them before sorting (by DSO, then symbol
 * start, highest first): the order its flat and folded chains keep for equal counts. A new
 * array of *nr ids (free it), NULL on ENOMEM.
 */
uint32_t *rv_chain_kids_perf(const struct rv_entries *g, const xpp_callgraph *t, uint32_t id,
			     uint32_t *nr);

/*
 * perf's callchain nodes hold runs of entries: a run goes on through nodes with one child
 * and no samples of their own. The last node of the run starting at id.
 */
uint32_t rv_chain_run_end(const xpp_callgraph *t, uint32_t id);

#endif
