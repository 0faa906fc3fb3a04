/*
 * Every key of the TUI, as `h` lists it. docs/xperf-report.1 (TUI KEYS) has the same list:
 * tests/cmd/report_tui.sh compares the two, so change both together.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tui/curses/tui_int.h"

struct key_help {
	const char *keys, *what; /* keys NULL: a heading */
};

static const struct key_help keys[] = {
	{ NULL, "Main view" },
	{ "Up, Down, j", "move the selection one line (k zooms, as in perf)" },
	{ "PgUp, PgDn, Space", "move one screen up or down (Space: down)" },
	{ "Home, End", "go to the first or the last line" },
	{ "Enter, +, Right", "fold or unfold the call chain of the selected entry or branch" },
	{ "Tab, Shift-Tab", "the next or the previous event (several events)" },
	{ "e", "unfold the selected entry's whole call chain, or fold it" },
	{ "E", "unfold every entry's whole call chain" },
	{ "C", "fold every call chain" },
	{ "/", "show only the symbols that contain a text (empty: all)" },
	{ "d", "zoom into the selected entry's shared object (again: zoom out)" },
	{ "t", "zoom into the selected entry's thread (by command without --sort pid; again: zoom out)" },
	{ "k, K", "show only kernel entries (again: all)" },
	{ "L", "hide the entries under a percent (0: show all)" },
	{ "s", "sort by other keys, as --sort (the samples counted again, not the file read)" },
	{ "o", "children and self, or self alone (--children, --no-children; counted again)" },
	{ "T", "the timeline: the event's samples over time, per thread; a range there is --time" },
	{ "Esc, Left", "take the last zoom or filter back; then back to the event list" },
	{ "a", "annotate the selected symbol" },
	{ "f", "flame graph of the event" },
	{ "c", "callers and callees of the selected function" },
	{ "i", "show the file's header" },
	{ "P", "save the lines as text to xperf.hist.N" },
	{ "h, ?, F1", "this list of keys (in every view)" },
	{ "q", "quit" },
	{ NULL, "Annotate" },
	{ "Up, Down, j, k", "move the selection one line" },
	{ "PgUp, PgDn", "move one screen up or down" },
	{ "Home, End", "go to the first or the last line" },
	{ "Tab, Shift-Tab", "the next or the previous instruction by share" },
	{ "Enter", "follow a jump or a call; on a source line, its hottest instruction" },
	{ "t", "show percent, then period, then samples (as perf's t)" },
	{ "s", "the source lines alone, each with its instructions' samples (again: back)" },
	{ "/, n, N", "search the text of the lines; the next or the previous match" },
	{ "Esc, Left, q", "back to the view before" },
	{ NULL, "Flame graph" },
	{ "Left, Right", "the frame beside the selected one" },
	{ "Up", "the widest frame the selected one calls (inverted: its caller)" },
	{ "Down", "the caller of the selected frame (inverted: the widest it calls)" },
	{ "Enter", "zoom into the selected frame" },
	{ "/", "highlight the frames whose name contains a text, with their share (empty: none)" },
	{ "n, N", "select the next or the previous highlighted frame" },
	{ "i", "invert the graph: the root on top, an icicle graph (again: at the bottom)" },
	{ "Esc", "zoom out; then back to the main view" },
	{ "q", "back to the main view" },
	{ NULL, "Timeline" },
	{ "Left, Right", "move the cursor one column (a stretch of the recording)" },
	{ "PgUp, PgDn", "move the cursor a tenth of the width" },
	{ "Home, End", "go to the first or the last column" },
	{ "Space", "mark where the range starts (again: no mark)" },
	{ "Enter", "keep the samples of the range in every view (counted again, the file not read)" },
	{ "r", "every sample again (no --time)" },
	{ "Up, Down", "scroll the threads" },
	{ "Esc, q, T", "back to the main view" },
	{ NULL, "Callers and callees" },
	{ "Up, Down, j, k", "move the selection" },
	{ "Enter", "show the callers and callees of the selected function" },
	{ "Esc, Left", "back to the function before; then back to the main view" },
	{ "q", "back to the main view" },
	{ NULL, "Event list, text screens" },
	{ "Up, Down, j, k", "move the selection, or scroll" },
	{ "Left, Right", "scroll a text screen's long lines sideways (Left at the edge: back)" },
	{ "Enter", "open the selected event" },
	{ "q, Esc", "quit the event list; leave a text screen" },
};

enum tui_exit tui_help_run(struct tui *t)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	enum tui_exit ex;

	if (!f)
		return TUI_BACK;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!keys[i].keys)
			fprintf(f, "%s%s:\n", i ? "\n" : "", keys[i].what);
		else
			fprintf(f, "  %-18s %s\n", keys[i].keys, keys[i].what);
	}
	fclose(f);
	ex = tui_pager_run(t, "Keys", text);
	free(text);
	return ex;
}
