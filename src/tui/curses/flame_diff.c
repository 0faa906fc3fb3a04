/* The TUI flame graph's differential colours: each frame's change of share from a baseline (diff --tui). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui/curses/tui_int.h"
#include "view/flame.h"

int tui_flame_diff(const struct tui *t, uint32_t idx, struct tui_flame_diff *d)
{
	const struct tui_baseline *b = t->src ? t->src->baseline : NULL;
	const xpp_callgraph *cg = t->c.ev[idx].cg;
	struct flame fn = { 0 }, fo = { 0 };
	const struct xpp_event *bev;
	uint32_t nr_bev, nr;
	int ret;

	memset(d, 0, sizeof(*d));
	if (!b || !cg || b->event[idx] < 0)
		return 0;
	bev = xpp_profile_events(b->profile, &nr_bev);
	if ((uint64_t)b->event[idx] >= nr_bev)
		return 0;
	/*
	 * The view layer's trees merge frames by name, as diff --flamegraph's SVG: the change
	 * of each of their boxes, found for the event tree's nodes through of_cg.
	 */
	ret = flame_build(&fo, b->profile, &bev[b->event[idx]]);
	if (!ret)
		ret = flame_build(&fn, t->p, &t->c.ev[idx]);
	if (!ret)
		ret = flame_set_baseline(&fn, &fo);
	nr = xpp_cg_nr_nodes(cg);
	if (!ret && !(d->delta = calloc(nr ? nr : 1, sizeof(*d->delta))))
		ret = -ENOMEM;
	for (uint32_t i = 0; !ret && i < nr && i < fn.nr_of_cg; i++)
		d->delta[i] = flame_delta(&fn, fn.of_cg[i]);
	if (!ret) {
		d->max = fn.base_max;
		d->base_samples = fo.count[0];
		d->name = b->name;
	}
	flame_free(&fn);
	flame_free(&fo);
	if (ret)
		tui_flame_diff_free(d);
	return ret;
}

void tui_flame_diff_free(struct tui_flame_diff *d)
{
	free(d->delta);
	memset(d, 0, sizeof(*d));
}

enum tui_style tui_flame_diff_style(const struct tui_flame_diff *d, uint32_t node)
{
	double x = d->delta[node], r = d->max > 0 ? (x < 0 ? -x : x) / d->max : 0;
	int level = (int)(r * TUI_DIFF_LEVELS + 0.999);

	/* a change under 2% of the largest is drawn as none, as its faint pink is near white */
	if (r < 0.02 || !level)
		return ST_SAME;
	if (level > TUI_DIFF_LEVELS)
		level = TUI_DIFF_LEVELS;
	return (enum tui_style)((x > 0 ? ST_GREW1 : ST_SHRANK1) + level - 1);
}
