/* The TUI's main view: entries with their call chains folded and unfolded, zooms and filters. */
#ifndef XPERF_REPORT_TUI_HISTS_H
#define XPERF_REPORT_TUI_HISTS_H

#include "tui/curses/tui_int.h"
#include "view/group.h"

/* An entry's chains once it was unfolded: the tree and which runs show their branches. */
struct hb_chain {
	xpp_callgraph *t;
	uint8_t *open;          /* per node of t: the branches after the run ending here shown */
	uint32_t nr_open;
};

/* One line of the view. */
struct hb_row {
	uint32_t entry;         /* entry id */
	uint32_t node;          /* 0: the entry's own line; else the chain node it shows */
	uint32_t run_end;       /* chain lines: the last node of the run (what folds) */
	uint32_t depth;         /* chain lines: 0 for the entry's first branches */
	uint64_t guides;        /* bit d: the branch at depth d has siblings below it */
	bool first;             /* the first line of its run: fold marker and share */
	bool last;              /* its run is the last of its siblings */
	bool has_kids;          /* its run has branches after it (above the threshold) */
};

enum hb_zoom_kind { Z_DSO, Z_COMM, Z_KERNEL, Z_SYM, Z_THREAD };

struct hb_zoom {
	enum hb_zoom_kind kind;
	uint32_t id;            /* the DSO or comm id, the thread's tid */
	char text[128];         /* the name shown in the title; the symbol filter's text */
};

#define HB_MAX_ZOOMS 8

struct hists {
	struct tui *t;
	uint32_t idx;
	struct rv_entries en;   /* the event's (a group's leader's) */
	/*
	 * A group of events side by side (grp.n > 1; --group, or a file's groups): entry ids
	 * are the group's, and an id below the leader's number of entries is the leader's
	 * entry of that id (its chains the leader's); a member's entry the leader lacks has
	 * none, as perf's.
	 */
	struct rv_group grp;
	struct rv_cols cols;    /* widths over every entry of the event */
	uint32_t *seq;
	struct hb_chain *chains; /* per entry id */
	uint8_t *expanded;      /* per entry id */
	uint8_t *unfolds;       /* per entry id: 1 its chains unfold, 2 not, 0 not known yet */
	size_t nr_entries;
	struct hb_zoom zooms[HB_MAX_ZOOMS];
	unsigned int nr_zooms;
	struct hb_row *rows;
	size_t nr_rows, cap_rows;
	size_t top, sel;
	double percent_limit;   /* entries under it hidden: --percent-limit, then the L key */
	char msg[256];          /* the status line's message until the next key */
};

/* rows.c */
/* The entries listed, in order (the group's or the event's): *nr ids. */
const uint32_t *hb_list(const struct hists *h, size_t *nr);
/* Entry e's key as the line shows it. */
struct xpp_hist_key hb_key(const struct hists *h, uint32_t e);
/* Whether entry lines start with perf's fold marker: chains are shown (not -g none). */
bool hb_marker(const struct hists *h);
/* Members side by side: the group's size, 1 for an event alone. */
uint32_t hb_nr_members(const struct hists *h);
/* Whether the lines show Children before Self. */
bool hb_children(const struct hists *h);
/*
 * The share columns of an entry line, left to right (hb_nr_members() each: with children
 * the members' children shares, then their self shares; else their own): column i's
 * share of entry e, in percent of its member's total.
 */
unsigned int hb_nr_shares(const struct hists *h);
double hb_share(const struct hists *h, uint32_t e, unsigned int i);
/* Member m's own samples of entry e (the Samples column, -n). */
uint64_t hb_samples(const struct hists *h, uint32_t e, uint32_t m);
/* Member m's own period of entry e (--show-total-period). */
uint64_t hb_period(const struct hists *h, uint32_t e, uint32_t m);

int hb_init(struct hists *h, struct tui *t, uint32_t idx);
void hb_free(struct hists *h);
/*
 * A live refresh (t->c holds the new results): the entries built again, the zooms, the
 * limit, the unfolded entries and the selected entry kept by their keys. 0, or -ENOMEM
 * with h freed.
 */
int hb_reload(struct hists *h);
/* Rebuild the lines after a change, keeping the selected one where it can. 0 or -ENOMEM. */
int hb_flatten(struct hists *h);
/* Enter/+: fold or unfold the selected line's branches. */
int hb_toggle(struct hists *h);
/* e: the selected entry's whole chain unfolded, or folded when it already is. */
int hb_toggle_entry_all(struct hists *h);
/* E / C: every entry shown unfolded completely / folded. */
int hb_all(struct hists *h, bool open);
bool hb_entry_visible(const struct hists *h, uint32_t e);
/*
 * Whether Enter on entry e shows anything: a branch of its chains is above the threshold
 * (perf's '+'). Builds the entry's chains on first use, so views ask it of the entries
 * they draw only.
 */
bool hb_entry_unfolds(struct hists *h, uint32_t e);
/* The zooms as titles show them (", DSO: libc.so.6, Symbol: work"), "" without. */
void hb_zooms_str(const struct hb_zoom *zooms, unsigned int nr, char *buf, size_t size);
/* Whether key k passes every zoom (d, t, K, /): for entries, and for the flame view's frames. */
bool hb_key_in_zooms(const struct tui *t, const struct hb_zoom *zooms, unsigned int nr,
		     const struct xpp_hist_key *k);
/* The share, count or period (-g VALUE) of a value, as the chain lines show it. */
void hb_value_str(const struct hists *h, uint64_t period, uint64_t count, char *buf,
		  size_t size);
/* Write every line (as unfolded and filtered now) to path as text. 0 or -errno. */
int hb_save(struct hists *h, const char *path, size_t *lines);

#endif
