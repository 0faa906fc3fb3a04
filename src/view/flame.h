/* The flame graph's own tree (frames merged by name under each parent) and its SVG writer. */
#ifndef XPERF_VIEW_FLAME_H
#define XPERF_VIEW_FLAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"

enum flame_kind { FK_ROOT, FK_COMM, FK_USER, FK_KERNEL, FK_UNKNOWN };

/*
 * Node 0 is "all"; below it the commands, then the frames outermost caller first. Keys of t
 * are ids of names, so two frames of one parent with the same name are one box, as in
 * folded stacks (two addresses of one unknown object, one symbol of two objects).
 */
struct flame {
	xpp_callgraph *t;
	xpp_intern *names;
	uint64_t *period, *count;   /* per node, with its descendants */
	uint8_t *kind;              /* enum flame_kind */
	const char **dso;           /* per node: the object's short name, NULL none */
	uint32_t cap;
	/*
	 * A differential graph (flame_set_baseline): per node, the baseline's share of its
	 * samples on the same path (0 where the baseline lacks it); NULL otherwise. The boxes
	 * are coloured by the change of share, red grew, blue shrank, deeper the more, as
	 * difffolded.pl's graphs; base_max is the largest change of a box drawn.
	 */
	double *base;
	double base_max;
	/*
	 * Built from an event's call tree: per node of that tree (nr_of_cg of them), its box
	 * here, for views that walk the tree itself (the TUI's flame graph); NULL otherwise.
	 */
	uint32_t *of_cg;
	uint32_t nr_of_cg;
};

/* The flame tree of event e of profile p (its call tree, or without chains its entries). */
int flame_build(struct flame *f, const xpp_profile *p, const struct xpp_event *e);
void flame_free(struct flame *f);

/*
 * Make f (the newer profile's tree) a differential graph against old's: paths are matched
 * by their frames' names (two builds at other addresses compare), shares of each tree's
 * own samples, so recordings of other lengths compare too. Paths only old has are not
 * drawn: the widths are f's. 0 or -ENOMEM.
 */
int flame_set_baseline(struct flame *f, const struct flame *old);
/*
 * In a differential graph, node id's change of share from the baseline, NEW's share minus
 * OLD's (fractions of 1: > 0 grew); 0 in another graph.
 */
double flame_delta(const struct flame *f, uint32_t id);

/*
 * Write f as an SVG document with a title and a subtitle line, the root at the bottom, or
 * with `inverted` at the top (an icicle graph). 0, or -errno of a write.
 */
int flame_write_svg(const struct flame *f, FILE *out, const char *title, const char *subtitle,
		    bool inverted);

#endif
