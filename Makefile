# xperf build. Works without ./configure (defaults below); ./configure writes config.mak
# with what it found. Sources are picked up by folder, so adding a .c file needs no edit here.
#
#   make                 build everything into build/
#   make SANITIZE=1      ASan+UBSan build into build-san/
#   make check           build and run every test (installs missing Debian packages as root)
#   make bench           xperf against perf, printed as ratios
#   make fuzz            long fuzzing run of the file reader
#   make deps            install the Debian packages we build against (as root)
#   make install PREFIX=/usr/local

-include config.mak

VERSION    := 0.1.0
PREFIX     ?= /usr/local
CC         ?= cc
OPT        ?= -O2
SANITIZE   ?= 0
FUZZ_SECONDS ?= 20

ifeq ($(SANITIZE),1)
BUILD      ?= build-san
SAN_FLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD      ?= build
SAN_FLAGS  :=
endif

# Library flags: config.mak overrides these; the defaults assume Debian's packages.
ZSTD_LIBS    ?= -lzstd
ELF_LIBS     ?= -lelf
DW_LIBS      ?= -ldw
CURSES_LIBS  ?= -lncursesw
CAPSTONE_LIBS ?= -lcapstone
CAPSTONE_CFLAGS ?= -I/usr/include/capstone

WARN       := -Wall -Wextra -Werror -Wno-missing-field-initializers
CFLAGS     ?= $(OPT) -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(SAN_FLAGS) -D_GNU_SOURCE -DXPERF_VERSION='"$(VERSION)"' \
              -Isrc -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS)

# ---- sources, by folder ---------------------------------------------------------------
FORMAT_SRC := $(wildcard src/format/*.c)
EVENTS_SRC := $(wildcard src/events/*.c)
CLI_SRC    := $(wildcard src/cli/*.c)
RECORD_SRC := $(wildcard src/record/*.c)
STAT_SRC   := $(wildcard src/stat/*.c)
REPORT_SRC := $(wildcard src/report/*.c src/report/*/*.c)
LIST_SRC   := $(wildcard src/list/*.c)
DRIVER_SRC := src/xperf.c
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_LIB_SRC := $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))
TOOL_SRC   := $(wildcard tests/tools/*.c)
WORKLOAD_SRC := $(wildcard tests/workloads/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

FORMAT_LIB := $(BUILD)/libxperf-format.a
EVENTS_LIB := $(BUILD)/libxperf-events.a
CLI_LIB    := $(BUILD)/libxperf-cli.a

COMMANDS   := $(BUILD)/xperf
ifneq ($(RECORD_SRC),)
COMMANDS   += $(BUILD)/xperf-record
endif
ifneq ($(STAT_SRC),)
COMMANDS   += $(BUILD)/xperf-stat
endif
ifneq ($(REPORT_SRC),)
COMMANDS   += $(BUILD)/xperf-report
endif
ifneq ($(LIST_SRC),)
COMMANDS   += $(BUILD)/xperf-list
endif
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
TOOL_BINS  := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(TOOL_SRC))
# Workloads keep frame pointers and symbols so call graphs are meaningful.
WORKLOAD_BINS := $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WORKLOAD_SRC))

LIBS_ALL   := $(CLI_LIB) $(EVENTS_LIB) $(FORMAT_LIB)
REPORT_LIBS := $(DW_LIBS) $(ELF_LIBS) $(CURSES_LIBS) $(CAPSTONE_LIBS)

.PHONY: all check check-unit bench fuzz deps install clean distclean
all: $(COMMANDS) $(UNIT_BINS) $(TOOL_BINS) $(WORKLOAD_BINS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CAPSTONE_CFLAGS) -c -o $@ $<

$(FORMAT_LIB): $(call obj,$(FORMAT_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(EVENTS_LIB): $(call obj,$(EVENTS_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(CLI_LIB): $(call obj,$(CLI_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/xperf: $(call obj,$(DRIVER_SRC)) $(CLI_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
$(BUILD)/xperf-record: $(call obj,$(RECORD_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(ELF_LIBS)
$(BUILD)/xperf-stat: $(call obj,$(STAT_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm
$(BUILD)/xperf-list: $(call obj,$(LIST_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
$(BUILD)/xperf-report: $(call obj,$(REPORT_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(call obj,$(UNIT_LIB_SRC)) $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(ELF_LIBS) -lm
$(BUILD)/tests/%: $(BUILD)/obj/tests/tools/%.o $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(ELF_LIBS) -lm
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o $@ $< -lm

# ---- tests ---------------------------------------------------------------------------
# check installs or detects what it needs, builds, then runs every test. The last line of
# its output is "N passed, N failed[, N skipped]".
check:
	@scripts/ensure-deps.sh
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) SANITIZE=$(SANITIZE) tests/run.sh

bench:
	@scripts/ensure-deps.sh
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bench/run.sh

fuzz:
	@BUILD=$(BUILD) FUZZ_SECONDS=$${FUZZ_SECONDS:-600} tests/fuzz/run.sh long

deps:
	@scripts/ensure-deps.sh --install

# ---- install -------------------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(COMMANDS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard docs/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build build-san
distclean: clean
	rm -f config.mak config.h

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
