/* debuginfod through libdebuginfod: each build-id asked once, the first failure said once. */
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/build_id.h"
#include "profile/symbols/debuginfod.h"

/* A build-id asked for: what the servers answered. */
struct asked {
	char hex[2 * 20 + 1];
	int ret;          /* 0, or a negative errno */
	char *path;       /* ret 0: the file in the cache */
};

/*
 * libdebuginfod is opened with dlopen when a build-id is first asked for, not linked: it
 * brings libcurl and its TLS, Kerberos, LDAP and SSH libraries, 30 of them, whose loading
 * and relocation cost every xperf process about 4 ms at start (as much as a report's whole
 * reading of the kallsyms cache, a twentieth of a report of a million samples), though a
 * report asks a server only for a stripped file that no local debug file covers. The
 * library is the one of the ABI compiled against (DEBUGINFOD_SONAME), kept open until the
 * process ends.
 */
static struct {
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	bool tried;              /* set once the load was attempted */
	bool ok;
	char why[256];           /* the loader's reason when !ok */
} lib;
static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether libdebuginfod's functions are at hand (else lib.why says why not). */
static bool lib_load(void)
{
	void *h;

	pthread_mutex_lock(&lib_lock);
	if (lib.tried)
		goto out;
	lib.tried = true;
	h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(lib.why, sizeof(lib.why), "%s", dlerror());
		goto out;
	}
	*(void **)&lib.begin = dlsym(h, "debuginfod_begin");
	*(void **)&lib.end = dlsym(h, "debuginfod_end");
	*(void **)&lib.find_debuginfo = dlsym(h, "debuginfod_find_debuginfo");
	if (!lib.begin || !lib.end || !lib.find_debuginfo)
		snprintf(lib.why, sizeof(lib.why), "%s lacks a debuginfod_ function",
			 DEBUGINFOD_SONAME);
	else
		lib.ok = true;
out:
	pthread_mutex_unlock(&lib_lock);
	return lib.ok;
}

struct xpp_debuginfod {
	debuginfod_client *c;    /* made at the first question (NULL before) */
	char *urls;
	pthread_mutex_t lock;  /* the client and the list are one caller's at a time */
	struct asked *asked;
	size_t nr, cap;
	int failed;            /* the first failure's errno (not -ENOENT): ask no more */
	char failed_hex[2 * 20 + 1];
	bool no_client;        /* libdebuginfod could not be loaded or started: failed */
};

int xpp_debuginfod_create(xpp_debuginfod **out, const char *urls, struct xb_error *err)
{
	xpp_debuginfod *d;

	*out = NULL;
	if (!urls || !*urls)
		return xb_error_set(err, -EINVAL, "no debuginfod server to ask: --debuginfod named "
				    "none and DEBUGINFOD_URLS is unset or empty");
	d = calloc(1, sizeof(*d));
	if (!d || !(d->urls = strdup(urls)))
		goto nomem;
	/* libdebuginfod reads these at each query: --debuginfod=URLS is perf's setenv too */
	if (setenv(DEBUGINFOD_URLS_ENV_VAR, urls, 1) ||
	    setenv(DEBUGINFOD_TIMEOUT_ENV_VAR, XPP_DEBUGINFOD_TIMEOUT, 0) ||
	    setenv(DEBUGINFOD_RETRY_LIMIT_ENV_VAR, XPP_DEBUGINFOD_RETRIES, 0))
		goto nomem;
	if (pthread_mutex_init(&d->lock, NULL)) {
		free(d->urls);
		free(d);
		return xb_error_set(err, -ENOMEM, "cannot start a debuginfod client");
	}
	*out = d;
	return 0;
nomem:
	if (d)
		free(d->urls);
	free(d);
	return xb_error_set(err, -ENOMEM, "out of memory");
}

void xpp_debuginfod_free(xpp_debuginfod *d)
{
	if (!d)
		return;
	if (d->c)
		lib.end(d->c);
	pthread_mutex_destroy(&d->lock);
	for (size_t i = 0; i < d->nr; i++)
		free(d->asked[i].path);
	free(d->asked);
	free(d->urls);
	free(d);
}

/* The server's answer for hex, asked now (the lock held). */
static int ask(xpp_debuginfod *d, const char *hex, char **path)
{
	int fd;

	/* the client of the first question: the library loaded, its settings taken from the
	   environment xpp_debuginfod_create() set */
	if (!d->c && (!lib_load() || !(d->c = lib.begin()))) {
		d->no_client = true;
		return -ENOPKG;
	}
	/* build_id_len 0: the id is given as its hex string */
	fd = lib.find_debuginfo(d->c, (const unsigned char *)hex, 0, path);

	if (fd < 0)
		return fd;
	/* the readers open the file themselves, through xb_input_open() */
	close(fd);
	return *path ? 0 : -ENOENT;
}

int xpp_debuginfod_find(xpp_debuginfod *d, const uint8_t *id, size_t size, char *out,
			size_t cap)
{
	char hex[2 * 20 + 1];
	char *path = NULL;
	int ret;

	if (!d || !size || size > 20)
		return -ENOENT;
	xelf_build_id_hex(id, size, hex);
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->nr; i++) {
		if (strcmp(d->asked[i].hex, hex))
			continue;
		ret = d->asked[i].ret;
		if (!ret && snprintf(out, cap, "%s", d->asked[i].path) >= (int)cap)
			ret = -ENAMETOOLONG;
		pthread_mutex_unlock(&d->lock);
		return ret;
	}
	if (d->failed) {
		pthread_mutex_unlock(&d->lock);
		return d->failed;
	}
	ret = ask(d, hex, &path);
	/* a server that does not have the file answers -ENOENT; anything else is a failure */
	if (ret < 0 && ret != -ENOENT && !d->failed) {
		d->failed = ret;
		snprintf(d->failed_hex, sizeof(d->failed_hex), "%s", hex);
	}
	if (d->nr == d->cap) {
		size_t ncap = d->cap ? 2 * d->cap : 16;
		struct asked *a = realloc(d->asked, ncap * sizeof(*a));

		if (a) {
			d->asked = a;
			d->cap = ncap;
		}
	}
	if (d->nr < d->cap) {
		struct asked *a = &d->asked[d->nr++];

		snprintf(a->hex, sizeof(a->hex), "%s", hex);
		a->ret = ret;
		a->path = path;
		path = NULL;
		if (!ret && snprintf(out, cap, "%s", a->path) >= (int)cap)
			ret = -ENAMETOOLONG;
	} else if (!ret && snprintf(out, cap, "%s", path) >= (int)cap) {
		ret = -ENAMETOOLONG;
	}
	free(path);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

bool xpp_debuginfod_warning(xpp_debuginfod *d, char *buf, size_t size)
{
	bool ret;

	if (!d)
		return false;
	pthread_mutex_lock(&d->lock);
	ret = d->failed != 0;
	if (ret && d->no_client)
		snprintf(buf, size, "debuginfod server%s '%s' cannot be asked: %s%s; stripped files "
			 "show the symbols they have", strchr(d->urls, ' ') ? "s" : "", d->urls,
			 lib.ok ? "cannot start a debuginfod client" : "cannot load libdebuginfod: ",
			 lib.ok ? "" : lib.why);
	else if (ret)
		snprintf(buf, size, "debuginfod server%s '%s' failed for build-id %s: %s; no more "
			 "debug files were asked for, stripped files show the symbols they have",
			 strchr(d->urls, ' ') ? "s" : "", d->urls, d->failed_hex,
			 d->failed == -ETIME || d->failed == -ETIMEDOUT ?
			 "timed out (DEBUGINFOD_TIMEOUT)" : strerror(-d->failed));
	pthread_mutex_unlock(&d->lock);
	return ret;
}
