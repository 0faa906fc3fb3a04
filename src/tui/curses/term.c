/* The TUI's terminal: full-screen mode, its restoration on every exit (signals too), colours, glyphs, text. */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <ncursesw/curses.h>
#include <ncursesw/term.h>

#include "tui/curses/tui_int.h"

/*
 * File-static because signal handlers need it: what to write and set to give the terminal
 * back (computed before any signal can come, only read in the handlers).
 */
static struct {
	bool active;
	SCREEN *scr;
	FILE *in, *out;
	int in_fd, out_fd;
	struct termios saved;
	char reset[256];           /* leave the alternate screen, cursor on, attributes off */
	size_t reset_len;
	bool utf8, color;
	struct sigaction old[NSIG];
	bool hooked[NSIG];
} T;

static const int term_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
};

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (T.active) {
		ssize_t w = write(T.out_fd, T.reset, T.reset_len);

		(void)w;
		tcsetattr(T.in_fd, TCSANOW, &T.saved);
		T.active = false;
	}
	/* the previous disposition takes over: the default (the status says which signal),
	 * or a sanitizer's report */
	sigaction(sig, &T.old[sig], NULL);
	/* a real fault comes back when the instruction runs again; a sent one is raised */
	if ((sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL) && si &&
	    si->si_code > 0)
		return;
	raise(sig);
}

/* Installed before ncurses starts: it then leaves SIGINT and SIGTERM to us. */
static void hook_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(term_signals) / sizeof(term_signals[0]); i++) {
		int sig = term_signals[i];

		if (sigaction(sig, NULL, &T.old[sig]) < 0)
			continue;
		/* an ignored SIGINT (nohup, a background job) stays ignored */
		if (!(T.old[sig].sa_flags & SA_SIGINFO) && T.old[sig].sa_handler == SIG_IGN)
			continue;
		if (sigaction(sig, &sa, NULL) == 0)
			T.hooked[sig] = true;
	}
}

static void unhook_signals(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (T.hooked[sig]) {
			sigaction(sig, &T.old[sig], NULL);
			T.hooked[sig] = false;
		}
}

static void add_cap(const char *name)
{
	char *s = tigetstr(name);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (T.reset_len + n < sizeof(T.reset)) {
		memcpy(T.reset + T.reset_len, s, n);
		T.reset_len += n;
	}
}

/*
 * The differential flame graph's colours: on 256 colours xterm's cube from white to red
 * and to blue, as flamegraph.pl's rgb(255, fade, fade); on 8, the two strongest levels
 * as backgrounds and the two faintest as text.
 */
static void diff_colors(void)
{
	static const short red[TUI_DIFF_LEVELS] = { 224, 217, 210, 196 };
	static const short blue[TUI_DIFF_LEVELS] = { 189, 147, 105, 21 };

	for (int i = 0; i < TUI_DIFF_LEVELS; i++) {
		if (COLORS >= 256) {
			init_pair((short)(ST_GREW1 + i), COLOR_BLACK, red[i]);
			init_pair((short)(ST_SHRANK1 + i), i < 2 ? COLOR_BLACK : COLOR_WHITE, blue[i]);
		} else if (i >= TUI_DIFF_LEVELS / 2) {
			init_pair((short)(ST_GREW1 + i), COLOR_BLACK, COLOR_RED);
			init_pair((short)(ST_SHRANK1 + i), COLOR_WHITE, COLOR_BLUE);
		} else {
			init_pair((short)(ST_GREW1 + i), COLOR_RED, -1);
			init_pair((short)(ST_SHRANK1 + i), COLOR_BLUE, -1);
		}
	}
	init_pair(ST_SAME, COLOR_BLACK, COLOR_WHITE);
}

static void init_colors(void)
{
	const char *no = getenv("NO_COLOR");

	/* https://no-color.org: set and not empty means no colour */
	T.color = has_colors() && !(no && no[0]);
	if (!T.color)
		return;
	start_color();
	use_default_colors();
	init_pair(ST_BAR, COLOR_WHITE, COLOR_BLUE);
	init_pair(ST_SELECTED, COLOR_BLACK, COLOR_CYAN);
	init_pair(ST_HOT, COLOR_RED, -1);
	init_pair(ST_WARM, COLOR_GREEN, -1);
	init_pair(ST_DIM, COLOR_BLUE, -1);
	init_pair(ST_FLAME1, COLOR_BLACK, COLOR_RED);
	init_pair(ST_FLAME2, COLOR_BLACK, COLOR_YELLOW);
	init_pair(ST_FLAME3, COLOR_BLACK, COLOR_MAGENTA);
	init_pair(ST_MATCH, COLOR_WHITE, COLOR_GREEN);
	diff_colors();
}

int tui_term_open(void)
{
	const char *term = getenv("TERM");
	int out_fd = -1, in_fd = -1;

	if (!term || !term[0] || !strcmp(term, "dumb") || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	/* LC_CTYPE only: the numbers the views print keep the C locale's decimal point */
	setlocale(LC_CTYPE, "");
	T.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	out_fd = dup(STDOUT_FILENO);
	in_fd = isatty(STDIN_FILENO) ? dup(STDIN_FILENO) : open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (out_fd < 0 || in_fd < 0 || tcgetattr(in_fd, &T.saved) < 0)
		goto fail;
	T.out = fdopen(out_fd, "w");
	if (!T.out)
		goto fail;
	out_fd = -1;
	T.in = fdopen(in_fd, "r");
	if (!T.in)
		goto fail;
	in_fd = -1;
	T.in_fd = fileno(T.in);
	T.out_fd = fileno(T.out);
	hook_signals();
	T.scr = newterm(NULL, T.out, T.in);
	if (!T.scr) {
		unhook_signals();
		goto fail;
	}
	T.reset_len = 0;
	add_cap("rmcup");
	add_cap("cnorm");
	add_cap("sgr0");
	add_cap("rmkx");
	T.active = true;
	return 0;
fail:
	if (out_fd >= 0)
		close(out_fd);
	if (in_fd >= 0)
		close(in_fd);
	if (T.out)
		fclose(T.out);
	if (T.in)
		fclose(T.in);
	T.out = T.in = NULL;
	return -ENOTTY;
}

void tui_term_modes(void)
{
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	init_colors();
	/*
	 * Until the screen has once been left and taken back, ncurses (6.4) flushes its output
	 * at every cursor move: a full screen went out in some seventy writes, each waking the
	 * terminal (tmux reads and parses each one). Leaving and taking it back now, before
	 * anything is drawn, makes every refresh one write.
	 */
	endwin();
	refresh();
}

void tui_term_close(void)
{
	if (!T.scr)
		return;
	endwin();
	T.active = false;
	tcsetattr(T.in_fd, TCSANOW, &T.saved);
	unhook_signals();
	delscreen(T.scr);
	T.scr = NULL;
	fclose(T.out);
	fclose(T.in);
	T.out = T.in = NULL;
}

bool tui_term_utf8(void)
{
	return T.utf8;
}

bool tui_term_color(void)
{
	return T.color;
}

int tui_attr(enum tui_style s)
{
	if (T.color)
		return s == ST_NORMAL ? A_NORMAL : (int)COLOR_PAIR(s) | (s == ST_BAR ? A_BOLD : 0);
	switch (s) {
	case ST_BAR:
	case ST_SELECTED:
		return A_REVERSE;
	case ST_HOT:
		return A_BOLD;
	case ST_MATCH:
		return A_BOLD | A_UNDERLINE;
	case ST_GREW3:
	case ST_GREW4:
		return A_BOLD;
	case ST_SHRANK3:
	case ST_SHRANK4:
	case ST_DIM:
		return A_DIM;
	default:
		return A_NORMAL;
	}
}

const char *tui_glyph(enum tui_glyph g)
{
	static const char *const utf8[G_NR] = { "\u2502", "\u251c", "\u2514", "\u2500", "\u2026" };
	static const char *const ascii[G_NR] = { "|", "|", "`", "-", "~" };

	return (T.utf8 ? utf8 : ascii)[g];
}

/* Columns of the first character of s (n bytes long, stored in *len); -1 not printable. */
static int char_width(const char *s, size_t n, size_t *len)
{
	mbstate_t st;
	wchar_t wc;
	size_t r;
	int w;

	if ((unsigned char)*s < 0x80) {
		*len = 1;
		return *s >= 0x20 && *s < 0x7f ? 1 : -1;
	}
	memset(&st, 0, sizeof(st));
	r = mbrtowc(&wc, s, n, &st);
	if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
		*len = 1;
		return -1;
	}
	*len = r;
	w = wcwidth(wc);
	return w;
}

int tui_width(const char *s)
{
	size_t n = strlen(s), len;
	int cols = 0, w;

	while (n) {
		w = char_width(s, n, &len);
		cols += w < 0 ? 1 : w;
		s += len;
		n -= len;
	}
	return cols;
}

int tui_put(int y, int x, int width, const char *s, bool pad)
{
	size_t n = strlen(s), len;
	int used = 0, w, total;
	bool cut;

	if (width <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + width > COLS)
		width = COLS - x;
	total = tui_width(s);
	cut = total > width;
	move(y, x);
	while (n) {
		w = char_width(s, n, &len);
		if (w < 0)
			w = 1; /* shown as '?' */
		if (used + w > width - (cut ? 1 : 0))
			break;
		if (len == 1)
			addch(*s >= 0x20 && *s < 0x7f ? (chtype)(unsigned char)*s : '?');
		else
			addnstr(s, (int)len);
		used += w;
		s += len;
		n -= len;
	}
	if (cut && used < width) {
		addstr(tui_glyph(G_ELLIPSIS));
		used++;
	}
	while (pad && used < width) {
		addch(' ');
		used++;
	}
	return used;
}

int tui_putf(int y, int x, int width, bool pad, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui_put(y, x, width, buf, pad);
}
