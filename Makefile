# xperf build. Works without ./configure (defaults below assume Debian's packages and detect
# the optional ones by their headers); ./configure writes config.mak with what it found.
# Sources are picked up by folder, so adding a .c file needs no edit here, unless it uses an
# optional library (see "optional libraries" below).
#
#   make                 build everything into build/
#   make SANITIZE=1      ASan+UBSan build into build-san/
#   make check           install or detect what the tests need, build, run every test
#                        (SANITIZE=1 works here too; FUZZ_SECONDS=N sets the short fuzz run)
#   make demo            install deps, build, record the demo program and report on it
#   make bench           xperf against perf, printed as ratios
#   make mutate          damaged files through the reading commands, xperf beside perf
#   make fuzz            long fuzzing runs of the reader and of the reading commands whole
#                        (600 s each or FUZZ_SECONDS; tests/fuzz/run.sh)
#   make deps            install the Debian packages we build and test with (as root)
#   make install PREFIX=/usr/local [DESTDIR=...]   binaries and man pages
#
# Required: libelf, libzstd and libiberty (binutils' demangler, a static library, as perf uses
# it). Optional libraries (libdw, ncursesw, Zydis and capstone, and libprotobuf-c with zlib
# for the pprof export, libtraceevent, libdebuginfod): HAVE_LIBDW, HAVE_CURSES, HAVE_ZYDIS,
# HAVE_CAPSTONE, HAVE_PBC, HAVE_TRACEEVENT and HAVE_DEBUGINFOD are 1 or 0 (from
# config.mak, the command line, or header detection); the build writes them to
# $(BUILD)/config.h (`#include "config.h"`: HAVE_LIBELF, HAVE_LIBDW, HAVE_ZSTD, HAVE_CURSES,
# HAVE_CAPSTONE, HAVE_ZYDIS, HAVE_PBC, HAVE_TRACEEVENT, HAVE_DEBUGINFOD, XPERF_VERSION). The files that use an optional library are listed
# by hand below ("optional libraries"), each with its stub.

-include config.mak

VERSION    := 0.1.0
PREFIX     ?= /usr/local
CC         ?= cc
CXX        ?= g++
OBJCOPY    ?= objcopy
STRIP      ?= strip
FUZZ_CC    ?= clang
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

# ---- libraries: config.mak overrides these; the defaults assume Debian's packages ----------
have_header = $(if $(wildcard $(1)),1,0)
HAVE_LIBELF   ?= 1
HAVE_ZSTD     ?= 1
HAVE_LIBDW    ?= $(call have_header,/usr/include/elfutils/libdw.h)
HAVE_CURSES   ?= $(call have_header,/usr/include/ncursesw/curses.h)
HAVE_CAPSTONE ?= $(call have_header,/usr/include/capstone/capstone.h)
HAVE_ZYDIS    ?= $(call have_header,/usr/include/Zydis/Zydis.h)
# tracepoint fields in xperf script: libtraceevent
HAVE_TRACEEVENT ?= $(call have_header,/usr/include/traceevent/event-parse.h)
# debug files of stripped binaries from debuginfod servers: elfutils' libdebuginfod
HAVE_DEBUGINFOD ?= $(call have_header,/usr/include/elfutils/debuginfod.h)
# pprof export (xperf report --pprof): libprotobuf-c, its compiler protoc-c, and zlib
HAVE_PBC      ?= $(if $(and $(wildcard /usr/include/protobuf-c/protobuf-c.h),$(wildcard /usr/include/zlib.h),$(shell command -v $(PROTOC_C) 2>/dev/null)),1,0)
PROTOC_C     ?= protoc-c
PBC_LIBS     ?= -lprotobuf-c -lz

ZSTD_LIBS    ?= -lzstd
ELF_LIBS     ?= -lelf
IBERTY_LIBS  ?= -liberty
DW_LIBS      ?= -ldw -lelf
CURSES_LIBS  ?= -lncursesw -ltinfo
CAPSTONE_LIBS ?= -lcapstone
CAPSTONE_CFLAGS ?= -I/usr/include/capstone
TRACEEVENT_LIBS ?= -ltraceevent
# libdebuginfod is opened with dlopen (fetch_debuginfod.c says why): -ldl for a C library
# before glibc 2.34, where dlopen lived
DEBUGINFOD_LIBS ?= -ldl
ZSTD_CFLAGS  ?=
ELF_CFLAGS   ?=
DW_CFLAGS    ?=
CURSES_CFLAGS ?=

ifneq ($(HAVE_LIBDW),1)
DW_LIBS      :=
DW_CFLAGS    :=
endif
ifneq ($(HAVE_CURSES),1)
CURSES_LIBS  :=
CURSES_CFLAGS :=
endif
ifneq ($(HAVE_CAPSTONE),1)
CAPSTONE_LIBS :=
CAPSTONE_CFLAGS :=
endif
ifneq ($(HAVE_PBC),1)
PBC_LIBS     :=
endif
ifneq ($(HAVE_TRACEEVENT),1)
TRACEEVENT_LIBS :=
endif
ifneq ($(HAVE_DEBUGINFOD),1)
DEBUGINFOD_LIBS :=
endif

LIB_CFLAGS := $(ZSTD_CFLAGS) $(ELF_CFLAGS) $(DW_CFLAGS) $(CURSES_CFLAGS) $(CAPSTONE_CFLAGS)

WARN       := -Wall -Wextra -Werror -Wno-missing-field-initializers
CFLAGS     ?= $(OPT) -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(SAN_FLAGS) -D_GNU_SOURCE -DXPERF_VERSION='"$(VERSION)"' \
              -Isrc -I$(BUILD) $(LIB_CFLAGS) -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS) -pthread

# The files every record of a report pass goes through (reader, decompression, ordering,
# sample decoding, the sample cache, the pass) call each other once or more per record, a
# few nanoseconds each, which the compiler cannot inline across files. Built with -flto,
# the link inlines them: annotate's pass of 250k samples takes 18% less time. Only these
# files, so links stay quick; LTO= turns it off (clang: off, it needs another linker).
HOT_FILES  := src/format/reader_records.c src/format/decompress.c src/format/reader_attrs.c \
              src/format/sample.c src/profile/session/ordered.c src/profile/sample_cache.c \
              src/profile/tree/hist.c src/profile/pass.c src/profile/values.c
LTO        ?= $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,-flto)

# ---- optional libraries: the files that use each, listed by hand -------------------------
# Every file that includes an optional library's headers is in X_FILES, and its stub (the
# same functions, returning -EOPNOTSUPP, behind the same header) in X_STUBS: with HAVE_X=1
# the files are built and the stubs are not, with HAVE_X=0 the other way round. Name them
# foo_dw.c / foo_dw_stub.c (_curses, _capstone, _pbc), or a folder foo_curses/ and its
# foo_curses_stub/. tests/cmd/build.sh checks that these lists name every such file and that
# each file has its stub; CI builds with every library off.
LIBDW_FILES    := src/profile/symbols/srcline_dw.c src/profile/unwind/unwind_dw.c \
                  src/profile/disasm/lines_dw.c
LIBDW_STUBS    := src/profile/symbols/srcline_dw_stub.c src/profile/unwind/unwind_dw_stub.c \
                  src/profile/disasm/lines_dw_stub.c
# the TUI is a folder: all of it, or its stub folder
CURSES_FILES   := $(wildcard src/tui/curses/*.c)
CURSES_STUBS   := src/tui/curses_stub/tui_stub.c
CAPSTONE_FILES := src/profile/disasm/disasm_capstone.c
CAPSTONE_STUBS := src/profile/disasm/disasm_capstone_stub.c
# x86 decoding with objdump's text: a folder, all of it or its stub folder
ZYDIS_FILES    := $(wildcard src/profile/disasm/x86_zydis/*.c)
ZYDIS_STUBS    := src/profile/disasm/x86_zydis_stub/x86_zydis_stub.c
PBC_FILES      := src/report/pprof/pprof_pbc.c
PBC_STUBS      := src/report/pprof/pprof_pbc_stub.c
TRACEEVENT_FILES := src/script/tracepoint_te.c
TRACEEVENT_STUBS := src/script/tracepoint_te_stub.c
DEBUGINFOD_FILES := src/profile/symbols/fetch_debuginfod.c
DEBUGINFOD_STUBS := src/profile/symbols/fetch_debuginfod_stub.c

OPTIONAL_OFF := $(if $(filter 1,$(HAVE_LIBDW)),$(LIBDW_STUBS),$(LIBDW_FILES)) \
                $(if $(filter 1,$(HAVE_CURSES)),$(CURSES_STUBS),$(CURSES_FILES)) \
                $(if $(filter 1,$(HAVE_CAPSTONE)),$(CAPSTONE_STUBS),$(CAPSTONE_FILES)) \
                $(if $(filter 1,$(HAVE_ZYDIS)),$(ZYDIS_STUBS),$(ZYDIS_FILES)) \
                $(if $(filter 1,$(HAVE_PBC)),$(PBC_STUBS),$(PBC_FILES)) \
                $(if $(filter 1,$(HAVE_TRACEEVENT)),$(TRACEEVENT_STUBS),$(TRACEEVENT_FILES)) \
                $(if $(filter 1,$(HAVE_DEBUGINFOD)),$(DEBUGINFOD_STUBS),$(DEBUGINFOD_FILES))
OPTIONAL_ALL := $(LIBDW_FILES) $(LIBDW_STUBS) $(CURSES_FILES) $(CURSES_STUBS) $(CAPSTONE_FILES) \
                $(CAPSTONE_STUBS) $(ZYDIS_FILES) $(ZYDIS_STUBS) $(PBC_FILES) $(PBC_STUBS) \
                $(TRACEEVENT_FILES) $(TRACEEVENT_STUBS) $(DEBUGINFOD_FILES) $(DEBUGINFOD_STUBS)
$(foreach f,$(OPTIONAL_ALL),$(if $(wildcard $(f)),,$(error $(f), listed for an optional library, is missing)))
select_src = $(filter-out $(OPTIONAL_OFF),$(1))

# ---- sources, by folder ---------------------------------------------------------------
BASE_SRC   := $(wildcard src/base/*.c)
XELF_SRC   := $(wildcard src/elf/*.c)
FORMAT_SRC := $(call select_src,$(wildcard src/format/*.c))
EVENTS_SRC := $(call select_src,$(wildcard src/events/*.c))
CLI_SRC    := $(call select_src,$(wildcard src/cli/*.c))
RECORD_SRC := $(call select_src,$(wildcard src/record/*.c src/record/*/*.c))
STAT_SRC   := $(call select_src,$(wildcard src/stat/*.c src/stat/*/*.c))
PROFILE_SRC := $(call select_src,$(wildcard src/profile/*.c src/profile/*/*.c src/profile/*/*/*.c))
VIEW_SRC   := $(call select_src,$(wildcard src/view/*.c))
TUI_SRC    := $(call select_src,$(wildcard src/tui/*.c src/tui/*/*.c))
REPORT_SRC := $(call select_src,$(wildcard src/report/*.c src/report/*/*.c))
LIST_SRC   := $(call select_src,$(wildcard src/list/*.c))
SCRIPT_SRC := $(call select_src,$(wildcard src/script/*.c))
INJECT_SRC := $(call select_src,$(wildcard src/inject/*.c))
ANNOTATE_SRC := $(call select_src,$(wildcard src/annotate/*.c))
DIFF_SRC   := $(call select_src,$(wildcard src/diff/*.c))
TOP_SRC    := $(call select_src,$(wildcard src/top/*.c))
# every source a build compiles (tests/cmd/build.sh reads it with `make print-ALL_SRC`)
ALL_SRC     = $(sort $(BASE_SRC) $(XELF_SRC) $(FORMAT_SRC) $(EVENTS_SRC) $(CLI_SRC) $(RECORD_SRC) \
              $(STAT_SRC) $(PROFILE_SRC) $(VIEW_SRC) $(TUI_SRC) $(REPORT_SRC) $(LIST_SRC) $(SCRIPT_SRC) $(INJECT_SRC) \
              $(ANNOTATE_SRC) $(DIFF_SRC) $(TOP_SRC) $(DRIVER_SRC))
DRIVER_SRC := src/xperf.c
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_LIB_SRC := $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))
TOOL_SRC   := $(wildcard tests/tools/*.c)
WORKLOAD_SRC := $(wildcard tests/workloads/*.c)
WORKLOAD_CXX_SRC := $(wildcard tests/workloads/*.cc)
# example programs of the libraries' documentation, built so they keep compiling
EXAMPLE_SRC := $(wildcard docs/examples/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

BASE_LIB   := $(BUILD)/libxperf-base.a
XELF_LIB   := $(BUILD)/libxperf-elf.a
FORMAT_LIB := $(BUILD)/libxperf-format.a
EVENTS_LIB := $(BUILD)/libxperf-events.a
CLI_LIB    := $(BUILD)/libxperf-cli.a
PROFILE_LIB := $(BUILD)/libxperf-profile.a
VIEW_LIB   := $(BUILD)/libxperf-view.a
TUI_LIB    := $(BUILD)/libxperf-tui.a
# A command's files but its main, for the unit tests to link (the commands link objects).
RECORD_OBJS := $(BUILD)/libxperf-record-objs.a
STAT_OBJS  := $(BUILD)/libxperf-stat-objs.a
SCRIPT_OBJS := $(BUILD)/libxperf-script-objs.a
CONFIG_H   := $(BUILD)/config.h

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
ifneq ($(SCRIPT_SRC),)
COMMANDS   += $(BUILD)/xperf-script
endif
ifneq ($(INJECT_SRC),)
COMMANDS   += $(BUILD)/xperf-inject
endif
ifneq ($(ANNOTATE_SRC),)
COMMANDS   += $(BUILD)/xperf-annotate
endif
ifneq ($(DIFF_SRC),)
COMMANDS   += $(BUILD)/xperf-diff
endif
ifneq ($(TOP_SRC),)
COMMANDS   += $(BUILD)/xperf-top
endif
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
EXAMPLE_BINS := $(patsubst docs/examples/%.c,$(BUILD)/docs/%,$(EXAMPLE_SRC))
# kept, as every other object, for incremental builds (make deletes intermediates)
.SECONDARY: $(call obj,$(EXAMPLE_SRC))
TOOL_BINS  := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(TOOL_SRC))
# Workloads keep frame pointers and symbols so call graphs are meaningful (rules below).
WORKLOAD_BINS := $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WORKLOAD_SRC)) \
                 $(patsubst tests/workloads/%.cc,$(BUILD)/workloads/%,$(WORKLOAD_CXX_SRC)) \
                 $(BUILD)/workloads/debuglink.debug

LIBS_ALL   := $(CLI_LIB) $(EVENTS_LIB) $(FORMAT_LIB) $(XELF_LIB) $(BASE_LIB)
# capstone and Zydis are not linked: disasm_capstone.c and x86_zydis/ open them with dlopen
# when they first disassemble (or, for annotate, on a thread during the pass), so no view
# pays the loader's relocation of them at start-up. CAPSTONE_LIBS (what configure found) is
# not linked; -ldl is for a C library before glibc 2.34, where dlopen lived there (an empty
# archive since).
REPORT_LIBS := $(DW_LIBS) $(DEBUGINFOD_LIBS) $(ELF_LIBS) $(IBERTY_LIBS) $(CURSES_LIBS) \
               $(if $(or $(CAPSTONE_CFLAGS),$(filter 1,$(HAVE_ZYDIS))),-ldl)

.PHONY: all check check-unit bench fuzz fuzz-build mutate deps demo install clean distclean FORCE
all: $(COMMANDS) $(UNIT_BINS) $(TOOL_BINS) $(WORKLOAD_BINS) $(EXAMPLE_BINS)

# config.h follows the make variables (so `make HAVE_CURSES=0` builds the stubs); it is
# rewritten only when its content changes, so nothing rebuilds needlessly.
$(CONFIG_H): FORCE
	@mkdir -p $(dir $@)
	@sh scripts/gen-config-h.sh "$(VERSION)" "$(HAVE_LIBELF)" "$(HAVE_LIBDW)" "$(HAVE_ZSTD)" \
		"$(HAVE_CURSES)" "$(HAVE_CAPSTONE)" "$(HAVE_PBC)" "$(HAVE_TRACEEVENT)" \
		"$(HAVE_DEBUGINFOD)" "$(HAVE_ZYDIS)" >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/obj/%.o: %.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(if $(filter $<,$(HOT_FILES)),$(LTO)) -c -o $@ $<

$(BASE_LIB): $(call obj,$(BASE_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(XELF_LIB): $(call obj,$(XELF_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(FORMAT_LIB): $(call obj,$(FORMAT_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(EVENTS_LIB): $(call obj,$(EVENTS_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(CLI_LIB): $(call obj,$(CLI_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(PROFILE_LIB): $(call obj,$(PROFILE_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(VIEW_LIB): $(call obj,$(VIEW_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(TUI_LIB): $(call obj,$(TUI_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(RECORD_OBJS): $(call obj,$(filter-out src/record/cmd_record.c,$(RECORD_SRC)))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(STAT_OBJS): $(call obj,$(filter-out src/stat/cmd_stat.c,$(STAT_SRC)))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(SCRIPT_OBJS): $(call obj,$(filter-out src/script/cmd_script.c,$(SCRIPT_SRC)))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The driver tells "not implemented yet" (no sources in this tree) from "not built", and its
# version lists an optional library only when files use it (the lists above).
BUILT_COMMANDS := $(patsubst $(BUILD)/xperf-%,%,$(filter $(BUILD)/xperf-%,$(COMMANDS)))
$(call obj,$(DRIVER_SRC)): ALL_CFLAGS += -DXPERF_COMMANDS='" $(BUILT_COMMANDS) "' \
	-DXPERF_USES_LIBDW=$(if $(LIBDW_FILES),1,0) -DXPERF_USES_CURSES=$(if $(CURSES_FILES),1,0) \
	-DXPERF_USES_CAPSTONE=$(if $(CAPSTONE_FILES),1,0) -DXPERF_USES_ZYDIS=$(if $(ZYDIS_FILES),1,0) \
	-DXPERF_USES_PBC=$(if $(PBC_FILES),1,0) \
	-DXPERF_USES_TRACEEVENT=$(if $(TRACEEVENT_FILES),1,0) \
	-DXPERF_USES_DEBUGINFOD=$(if $(DEBUGINFOD_FILES),1,0)
$(call obj,$(DRIVER_SRC)): Makefile
$(BUILD)/xperf: $(call obj,$(DRIVER_SRC)) $(CLI_LIB) $(BASE_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
$(BUILD)/xperf-record: $(call obj,$(RECORD_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(ELF_LIBS) -lm
$(BUILD)/xperf-stat: $(call obj,$(STAT_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) -lm
$(BUILD)/xperf-list: $(call obj,$(LIST_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
$(BUILD)/xperf-inject: $(call obj,$(INJECT_SRC)) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
# pprof's profile.proto, compiled by protoc-c into $(BUILD)/gen/ (its code is not ours: built
# without -Werror's extra warnings)
ifeq ($(HAVE_PBC),1)
PBC_OBJ    := $(BUILD)/obj/gen/profile.pb-c.o
$(BUILD)/gen/profile.pb-c.c $(BUILD)/gen/profile.pb-c.h &: src/report/pprof/profile.proto
	@mkdir -p $(BUILD)/gen
	$(PROTOC_C) --c_out=$(BUILD)/gen --proto_path=src/report/pprof $<
$(PBC_OBJ): $(BUILD)/gen/profile.pb-c.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(CFLAGS) $(SAN_FLAGS) -I$(BUILD)/gen -c -o $@ $<
$(call obj,$(PBC_FILES)): $(BUILD)/gen/profile.pb-c.h
$(call obj,$(PBC_FILES)): ALL_CFLAGS += -I$(BUILD)/gen
endif
$(BUILD)/xperf-report: $(call obj,$(REPORT_SRC)) $(PBC_OBJ) $(TUI_LIB) $(VIEW_LIB) $(PROFILE_LIB) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) $(PBC_LIBS) -lm
$(BUILD)/xperf-script: $(call obj,$(SCRIPT_SRC)) $(VIEW_LIB) $(PROFILE_LIB) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) $(TRACEEVENT_LIBS) -lm

# annotate draws nothing: no curses (linkers without --as-needed would load it at start-up)
$(BUILD)/xperf-annotate: $(call obj,$(ANNOTATE_SRC)) $(VIEW_LIB) $(PROFILE_LIB) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(filter-out $(CURSES_LIBS),$(REPORT_LIBS)) -lm

# diff --tui browses NEW in the TUI
$(BUILD)/xperf-diff: $(call obj,$(DIFF_SRC)) $(TUI_LIB) $(VIEW_LIB) $(PROFILE_LIB) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) -lm

$(BUILD)/xperf-top: $(call obj,$(TOP_SRC)) $(TUI_LIB) $(VIEW_LIB) $(PROFILE_LIB) $(LIBS_ALL)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) -lm

# Unit tests link the libraries and the commands' archives, never their .c files.
$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(call obj,$(UNIT_LIB_SRC)) $(RECORD_OBJS) $(STAT_OBJS) $(SCRIPT_OBJS) \
		  $(VIEW_LIB) $(PROFILE_LIB) $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) -lm
# the TUI library's live entry point, as top calls it (tests/cmd/tui_live.sh)
$(BUILD)/tests/tui-live: $(BUILD)/obj/tests/tools/tui-live.o $(TUI_LIB) $(VIEW_LIB) $(PROFILE_LIB) \
		$(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) -lm
# a kallsyms cache of another boot (bench/bench_report_stdio.sh, report_kallsyms_cache.sh)
$(BUILD)/tests/xpf-kcache: $(BUILD)/obj/tests/tools/xpf-kcache.o $(PROFILE_LIB) $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) -lm
$(BUILD)/tests/%: $(BUILD)/obj/tests/tools/%.o $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ZSTD_LIBS) $(ELF_LIBS) -lm
$(BUILD)/docs/%: $(BUILD)/obj/docs/examples/%.o $(EVENTS_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

# ---- workloads: the programs the command tests profile, in $(BUILD)/workloads/ ------------
# C workloads: -O1 -fno-inline, so each function the tests name is a symbol of its own.
WORKLOAD_CFLAGS := -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline -pthread
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WORKLOAD_CFLAGS) -o $@ $< -lm
# C++ workloads: -O2 and no -fno-inline, built as C++ usually is, so that template instances,
# lambdas and functions that exist only inlined (with DWARF inline records) come out of the
# compiler as they do in real programs; each source says which functions stay out of line.
$(BUILD)/workloads/%: tests/workloads/%.cc tests/workloads/workload.h
	@mkdir -p $(dir $@)
	$(CXX) -std=gnu++17 -O2 -g -fno-omit-frame-pointer -pthread -o $@ $<
# debuglink ships stripped, as distributions ship programs: no .symtab and no DWARF in it,
# both only in debuglink.debug beside it, which its .gnu_debuglink section names (file name
# and CRC32; objcopy records the base name only). Tests use it to check that symbols are
# found through the debuglink, where perf looks too (beside the binary, .debug/ beside it,
# /usr/lib/debug/DIR/). It is linked unstripped first, under obj/, and split from that.
$(BUILD)/obj/tests/workloads/debuglink.full: tests/workloads/debuglink.c tests/workloads/workload.h
	@mkdir -p $(dir $@)
	$(CC) $(WORKLOAD_CFLAGS) -o $@ $< -lm
$(BUILD)/workloads/debuglink.debug: $(BUILD)/obj/tests/workloads/debuglink.full
	@mkdir -p $(dir $@)
	$(OBJCOPY) --only-keep-debug $< $@
$(BUILD)/workloads/debuglink: $(BUILD)/obj/tests/workloads/debuglink.full $(BUILD)/workloads/debuglink.debug
	$(STRIP) --strip-all -o $@.tmp $<
	$(OBJCOPY) --add-gnu-debuglink=$(BUILD)/workloads/debuglink.debug $@.tmp
	mv $@.tmp $@

# ---- fuzzing ---------------------------------------------------------------------------
# The reader's sources are compiled again with clang and libFuzzer's instrumentation (always
# with ASan+UBSan, whatever SANITIZE says), into $(BUILD)/fuzz/.
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -DXPERF_VERSION='"$(VERSION)"' -Isrc -I$(BUILD) \
              -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJ   := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FORMAT_SRC) $(BASE_SRC))

$(BUILD)/fuzz/obj/%.o: %.c | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(LIB_CFLAGS) $(FUZZ_OBJ_FLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/fuzz_reader: tests/fuzz/fuzz_reader.c $(FUZZ_OBJ) | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(ZSTD_LIBS)

# fuzz_pass: the reading commands whole (tests/fuzz/fuzz_pass.c), their sources built again
# the same way, each cmd_CMD.c with its main() renamed fuzz_main_CMD so that one process
# holds them all. Only for this harness: the normal build is untouched.
FUZZ_CMD_SRC  := $(filter src/%/cmd_report.c src/%/cmd_script.c src/%/cmd_annotate.c \
                 src/%/cmd_inject.c,$(REPORT_SRC) $(SCRIPT_SRC) $(ANNOTATE_SRC) $(INJECT_SRC))
FUZZ_PASS_SRC := $(sort $(BASE_SRC) $(XELF_SRC) $(FORMAT_SRC) $(CLI_SRC) $(PROFILE_SRC) \
                 $(VIEW_SRC) $(TUI_SRC) $(REPORT_SRC) $(SCRIPT_SRC) $(ANNOTATE_SRC) $(INJECT_SRC))
FUZZ_PASS_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_PASS_SRC)) \
                 $(if $(PBC_OBJ),$(BUILD)/fuzz/obj/gen/profile.pb-c.o)
# (recursive: $< is the source being compiled)
FUZZ_OBJ_FLAGS = $(if $(filter $<,$(FUZZ_CMD_SRC)),-Dmain=fuzz_main_$(patsubst cmd_%.c,%,$(notdir $<))) \
                 $(if $(filter $<,$(PBC_FILES)),-I$(BUILD)/gen)
ifeq ($(HAVE_PBC),1)
$(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(PBC_FILES)): $(BUILD)/gen/profile.pb-c.h
$(BUILD)/fuzz/obj/gen/profile.pb-c.o: $(BUILD)/gen/profile.pb-c.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(BUILD)/gen -c -o $@ $<
endif
$(BUILD)/fuzz/fuzz_pass: tests/fuzz/fuzz_pass.c $(FUZZ_PASS_OBJ) | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(ZSTD_LIBS) $(REPORT_LIBS) \
		$(PBC_LIBS) $(TRACEEVENT_LIBS) -lm -pthread
# fuzz_tpformat: the tracepoint format check against libtraceevent (tests/fuzz/fuzz_tpformat.c)
FUZZ_TP_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,src/script/tracepoint_format.c src/script/print_fmt.c)
$(BUILD)/fuzz/fuzz_tpformat: tests/fuzz/fuzz_tpformat.c $(FUZZ_TP_OBJ) | $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(TRACEEVENT_LIBS)
fuzz-build: $(BUILD)/fuzz/fuzz_reader $(BUILD)/fuzz/fuzz_pass $(if $(TRACEEVENT_LIBS),$(BUILD)/fuzz/fuzz_tpformat)

# ---- tests ---------------------------------------------------------------------------
# check installs or detects what it needs, builds, then runs every test. The last line of
# its output is "N passed, N failed, N skipped".
# A failed build still runs the tests of what did build, and counts as one failed case.
check:
	@sh scripts/ensure-deps.sh
	@$(MAKE) --no-print-directory -k all; \
	BUILD_FAILED=$$?; export BUILD_FAILED; \
	BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) SANITIZE=$(SANITIZE) bash tests/run.sh

bench:
	@sh scripts/ensure-deps.sh
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bench/run.sh

fuzz:
	@BUILD=$(BUILD) FUZZ_SECONDS=$(if $(filter file,$(origin FUZZ_SECONDS)),600,$(FUZZ_SECONDS)) \
		bash tests/fuzz/run.sh long

# make mutate: MUTANTS damaged files (default 2000, from tests/fuzz/corpus-pass/) through every
# reading command of the ASan+UBSan build, with perf's figures beside (bench/mutate.py;
# MUTATE_FLAGS="--jobs 3 --perf-every 4 --max-seconds 3600" for a loaded machine)
MUTANTS ?= 2000
# (the release build's commands run too: their peak RSS is the one without ASan's shadow)
mutate:
	@$(MAKE) --no-print-directory SANITIZE=1 build-san/xperf-report build-san/xperf-script \
		build-san/xperf-annotate build-san/xperf-inject
	@$(MAKE) --no-print-directory SANITIZE=0 BUILD=build build/xperf-report build/xperf-script \
		build/xperf-annotate build/xperf-inject
	@nice -n 10 python3 bench/mutate.py --build build-san --release build --mutants $(MUTANTS) \
		$(MUTATE_FLAGS)

deps:
	@sh scripts/ensure-deps.sh --install

demo:
	@sh scripts/ensure-deps.sh --build
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bash scripts/demo.sh

# ---- install -------------------------------------------------------------------------
install: $(COMMANDS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(COMMANDS) $(DESTDIR)$(PREFIX)/bin/
	$(if $(wildcard docs/*.1),install -m 644 $(wildcard docs/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/)

# `make print-REPORT_SRC`: the value of a variable, for scripts and tests.
print-%:
	@echo $($*)

clean:
	rm -rf build build-san build-nocap build-nozydis build-nolibs
distclean: clean
	rm -f config.mak config.h

-include $(shell find $(BUILD)/obj $(BUILD)/fuzz -name '*.d' 2>/dev/null)
