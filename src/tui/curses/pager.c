/* Text screens of the TUI (the file header, the key list) and the one-line prompt. */
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "tui/curses/tui_int.h"

/* The lines of text, split in place: a new array of pointers into it (NULL on ENOMEM). */
static char **split_lines(char *text, size_t *nr)
{
	size_t n = 1, i = 0;
	char **lines;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	lines = malloc(n * sizeof(*lines));
	if (!lines)
		return NULL;
	for (char *p = text; p;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = 0;
		if (*p || nl)
			lines[i++] = p;
		p = nl ? nl + 1 : NULL;
	}
	*nr = i;
	return lines;
}

/* Past the first n characters of s (whole UTF-8 sequences): the screen's left edge. */
static const char *skip_chars(const char *s, int n)
{
	while (*s && n > 0) {
		s++;
		while (((unsigned char)*s & 0xc0) == 0x80)
			s++;
		n--;
	}
	return s;
}

#define PAGER_STEP 8 /* columns a Left or Right key scrolls */

enum tui_exit tui_pager_run(struct tui *t, const char *title, const char *text)
{
	char *copy = strdup(text ? text : "");
	size_t nr = 0, top = 0;
	char **lines = copy ? split_lines(copy, &nr) : NULL;
	int left = 0, widest = 0;

	if (!lines) {
		free(copy);
		return TUI_BACK;
	}
	for (size_t i = 0; i < nr; i++)
		if (tui_width(lines[i]) > widest)
			widest = tui_width(lines[i]);
	for (;;) {
		int page = LINES - 2 > 1 ? LINES - 2 : 1, ch;
		size_t max_top = nr > (size_t)page ? nr - (size_t)page : 0;

		if (top > max_top)
			top = max_top;
		erase();
		attron(tui_attr(ST_BAR));
		tui_put(0, 0, COLS, title, true);
		attroff(tui_attr(ST_BAR));
		for (int i = 0; i < page && top + (size_t)i < nr; i++)
			tui_put(1 + i, 0, COLS, skip_chars(lines[top + (size_t)i], left), false);
		attron(tui_attr(ST_BAR));
		/* what scrolls sideways first: a narrow screen cuts the end of this line */
		tui_putf(LINES - 1, 0, COLS, true, "q or Esc: back  %sarrows, PgUp, PgDn: scroll "
			 "  (lines %zu-%zu of %zu)",
			 widest <= COLS ? "" : left ? "Left/Right: more  " : "Right: more  ",
			 nr ? top + 1 : 0, top + (size_t)page < nr ? top + (size_t)page : nr, nr);
		attroff(tui_attr(ST_BAR));
		ch = tui_getkey(t);
		if (tui_move(ch == ' ' ? KEY_NPAGE : ch, &top, max_top + 1, (size_t)page))
			continue;
		/* lines wider than the screen scroll sideways; Left at the left edge goes back */
		if (ch == KEY_RIGHT && left + COLS < widest) {
			left += PAGER_STEP;
			continue;
		}
		if (ch == KEY_LEFT && left > 0) {
			left = left > PAGER_STEP ? left - PAGER_STEP : 0;
			continue;
		}
		switch (ch) {
		case 'q':
		case TUI_ESC:
		case KEY_LEFT:
			free(lines);
			free(copy);
			return TUI_BACK;
		default:
			break;
		}
	}
}

const char *tui_prompt(struct tui *t, const char *label, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	curs_set(1);
	for (;;) {
		int x, ch;

		attron(tui_attr(ST_BAR));
		x = tui_put(LINES - 1, 0, COLS, label, false);
		x += tui_put(LINES - 1, x, COLS - x, buf, false);
		tui_put(LINES - 1, x, COLS - x, "", true);
		attroff(tui_attr(ST_BAR));
		move(LINES - 1, x < COLS ? x : COLS - 1);
		ch = tui_getkey(t);
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		if (ch == TUI_ESC || t->failed || t->ended) {
			curs_set(0);
			return NULL;
		}
		if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			/* one character back, whole UTF-8 sequences at a time */
			while (len && ((unsigned char)buf[--len] & 0xc0) == 0x80)
				;
			buf[len] = 0;
		} else if (ch >= 0x20 && ch < 0x100 && ch != 0x7f && len + 1 < size) {
			buf[len++] = (char)ch;
			buf[len] = 0;
		}
	}
	curs_set(0);
	return buf;
}
