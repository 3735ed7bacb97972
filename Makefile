# awesim — build, test, install.
#
#   make            build ./awesim
#   make run        install missing dependencies, build, run the default scenario
#   make test       install missing dependencies, run all tests (normal build and ASan+UBSan)
#   make bench      benchmarks (real-time factor, VSM solve time, peak memory)
#   make fuzz       libFuzzer harnesses of the input readers, FUZZ_SECONDS (60) each (clang),
#                   then FUZZ_SECONDS of tools/semantic-fuzz (the simulation under ASan+UBSan)
#   make install PREFIX=/usr/local
#   make install-python   the Python package only, for Debian's python3 (PYTHON, PYTHON_SITE)
#
# Builds run one job per core unless -j is given; compile lines are short (`CC src/x.c`),
# V=1 prints the full commands.
#
# All dependency discovery happens in the block below and nowhere else.

PREFIX  ?= /usr/local

# parallel by default: one job per core, unless the caller chose -j (or -jN) himself; only at
# the top level (a sub-make shares its parent's job server, and make 4.3 does not show it -j yet)
ifeq ($(filter -j%,$(MAKEFLAGS))$(filter-out 0,$(MAKELEVEL)),)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

# quiet command lines: `CC file`; V=1 shows every command in full
ifeq ($(V),1)
  Q :=
  say := @:
else
  Q := @
  say := @printf '  %-5s %s\n'
endif
CC      ?= cc
VERSION := 0.1.0

# ---- dependencies: libyaml, GSL, FFTW, HDF5 (serial flavour preferred over MPI) ----
PKG_CONFIG ?= pkg-config
HDF5_PKG := $(shell for p in hdf5-serial hdf5; do \
              if $(PKG_CONFIG) --exists $$p 2>/dev/null; then echo $$p; break; fi; done)
ifneq ($(HDF5_PKG),)
  HDF5_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(HDF5_PKG))
  HDF5_LIBS   := $(shell $(PKG_CONFIG) --libs $(HDF5_PKG))
else
  # fall back to the serial wrapper's configuration, then to Debian's serial paths
  HDF5_CFLAGS := -I/usr/include/hdf5/serial
  HDF5_LIBS   := -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5
endif
# HDF5 linked from its static archive where the system has one (HDF5_STATIC=no: shared).
# Why: Debian's libhdf5.so pulls in libcurl, gnutls, krb5 and 25 more shared libraries for
# its S3 driver, which awesim never uses; loading them was most of a short run's wall time
# (`awesim --version` 5.3 -> 1.4 ms, a 200-angle polar 10.8 -> 6.0 ms; README "Speed").
HDF5_STATIC ?= yes
HDF5_LIBDIR := $(patsubst -L%,%,$(filter -L%,$(HDF5_LIBS)))
HDF5_ARCHIVE := $(firstword $(wildcard $(addsuffix /libhdf5.a,$(HDF5_LIBDIR) \
                  /usr/lib/x86_64-linux-gnu/hdf5/serial)))
HDF5_SZIP := $(shell f=$$($(CC) -print-file-name=libsz.so); [ -f "$$f" ] && echo -lsz)
ifeq ($(HDF5_STATIC)$(if $(HDF5_ARCHIVE),1,0),yes1)
  HDF5_LIBS := $(HDF5_ARCHIVE) $(HDF5_SZIP) -lz -ldl
endif
# FFTW draws the turbulent wind boxes (src/turb/mann.c: inverse 3-D FFTs of 1e7 points)
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags yaml-0.1 gsl fftw3 2>/dev/null) $(HDF5_CFLAGS)
DEP_LIBS   := $(shell $(PKG_CONFIG) --libs yaml-0.1 gsl fftw3 2>/dev/null || \
                echo -lyaml -lgsl -lgslcblas -lfftw3) $(HDF5_LIBS) -lz -lm

WARN    := -Wall -Wextra -Werror -Wpedantic -Wshadow -Wvla -Wmissing-prototypes \
           -Wimplicit-fallthrough -Wstrict-prototypes -Wformat=2 -Wno-format-truncation
CSTD    := -std=c11 -D_XOPEN_SOURCE=700
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(DEP_CFLAGS) -DAWE_VERSION='"$(VERSION)"' -Isrc
# float-cast-overflow: GCC leaves it out of "undefined" (clang, the fuzzers' compiler, has it)
SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all

# libFuzzer harnesses (`make fuzz`, rules at the end); built only where clang is found
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
HAVE_FUZZ_CC := $(shell command -v $(FUZZ_CC) 2>/dev/null)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS   = $(CSTD) $(filter-out -Wno-format-truncation,$(WARN)) \
               -Wno-format-nonliteral -g -O1 $(DEP_CFLAGS) \
               -DAWE_VERSION='"$(VERSION)"' -Isrc $(FUZZ_SAN)
FUZZERS      := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))

# src/ is one folder per layer (src/README.md); every .c under it is part of the program
SRC_DIRS := $(sort $(dir $(wildcard src/*/)))
SRCS     := $(foreach d,$(SRC_DIRS),$(wildcard $(d)*.c))
LIB_SRCS := $(filter-out src/cli/main.c,$(SRCS))
TEST_SRCS := $(wildcard tests/test_*.c)
BENCH_SRCS := $(wildcard bench/bench_*.c)
# bench_lu compares the sparse LU with SuiteSparse's KLU: built only where KLU's header is
# installed (Debian libsuitesparse-dev); the program itself does not use KLU (docs/speed.md)
HAVE_KLU := $(shell test -f /usr/include/suitesparse/klu.h && echo 1)
ifneq ($(HAVE_KLU),1)
BENCH_SRCS := $(filter-out bench/bench_lu.c,$(BENCH_SRCS))
endif

OBJS      := $(SRCS:src/%.c=build/obj/%.o)
LIB_OBJS  := $(LIB_SRCS:src/%.c=build/obj/%.o)
ASAN_OBJS := $(SRCS:src/%.c=build/asan/%.o)
ASAN_LIB_OBJS := $(LIB_SRCS:src/%.c=build/asan/%.o)
TESTS      := $(TEST_SRCS:tests/%.c=build/tests/%)
ASAN_TESTS := $(TEST_SRCS:tests/%.c=build/asan-tests/%)
BENCHES    := $(BENCH_SRCS:bench/%.c=build/bench/%)
FUZZ_OBJS  := $(LIB_SRCS:src/%.c=build/fuzz-obj/%.o)

.PHONY: all run test test-only asan deps deps-tests bench install uninstall clean lint-man fuzz
all: awesim

awesim: $(OBJS)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(DEP_LIBS)

build/awesim-asan: $(ASAN_OBJS)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $(ASAN_OBJS) $(DEP_LIBS)

# Header dependencies come from the compiler (-MMD -MP writes a .d beside each object and
# binary); they are included at the end of this file.
DEPFLAGS := -MMD -MP

build/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

build/asan/%.o: src/%.c
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN) $(DEPFLAGS) -c -o $@ $<

build/tests/%: tests/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Itests -o $@ $< $(LIB_OBJS) $(DEP_LIBS)

build/asan-tests/%: tests/%.c $(ASAN_LIB_OBJS)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN) $(DEPFLAGS) -Itests -o $@ $< $(ASAN_LIB_OBJS) $(DEP_LIBS)

# ThreadSanitizer: the C API's threaded tests (tests/tsan_api.sh runs them)
TSAN       := -fsanitize=thread -fno-omit-frame-pointer
TSAN_OBJS  := $(LIB_SRCS:src/%.c=build/tsan/%.o)
TSAN_TESTS := build/tsan-tests/test_api_safety

build/tsan/%.o: src/%.c
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(TSAN) $(DEPFLAGS) -c -o $@ $<

build/tsan-tests/%: tests/%.c $(TSAN_OBJS)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(TSAN) $(DEPFLAGS) -Itests -o $@ $< $(TSAN_OBJS) $(DEP_LIBS)

build/bench/%: bench/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Itests -o $@ $< $(LIB_OBJS) $(DEP_LIBS)

build/bench/bench_lu: bench/bench_lu.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Itests -o $@ $< $(LIB_OBJS) -lklu $(DEP_LIBS)

deps:
	@tools/install-deps

# what only the tests need besides (slurm-wlm and munge for tests/slurm_sweep.sh)
deps-tests:
	@tools/install-deps --tests

run: deps
	@$(MAKE) --no-print-directory awesim
	./awesim check scenarios/v3_2019.yaml
	./awesim simulate scenarios/v3_2019.yaml --set run.duration=330 -o out/v3_2019_run.h5
	tools/awesim-plot out/v3_2019_run.h5 -o out/v3_2019_run.png
	tools/awesim-replay out/v3_2019_run.h5 -o out/v3_2019_run.html
	@echo "log: out/v3_2019_run.h5, plot: out/v3_2019_run.png, replay: out/v3_2019_run.html (tour: README.md)"

# The tests run twice: once on the optimised build, once under ASan+UBSan.
test: deps-tests
	@$(MAKE) --no-print-directory test-only

test-only: awesim build/awesim-asan $(TESTS) $(ASAN_TESTS) $(TSAN_TESTS) \
           $(if $(HAVE_FUZZ_CC),$(FUZZERS))
	tests/run.sh

bench: awesim $(BENCHES)
	tools/run-bench

install: awesim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 awesim $(DESTDIR)$(PREFIX)/bin/awesim
	install -m 644 man/awesim.1 $(DESTDIR)$(PREFIX)/share/man/man1/awesim.1
	install -m 644 man/awesim-scenario.5 $(DESTDIR)$(PREFIX)/share/man/man5/awesim-scenario.5

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/awesim $(DESTDIR)$(PREFIX)/share/man/man1/awesim.1 \
	      $(DESTDIR)$(PREFIX)/share/man/man5/awesim-scenario.5

clean:
	rm -rf build awesim out

# ---- fuzzing: libFuzzer harnesses tests/fuzz/fuzz_*.c over the library built by clang with
# fuzzer instrumentation and ASan+UBSan; `make test` runs a short smoke of each (fuzz_smoke.sh)
build/fuzz-obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(DEP_LIBS)

.SECONDARY: $(FUZZ_OBJS) $(TSAN_OBJS)

# the input readers under libFuzzer, then the simulation itself: random valid --set overrides of
# the shipped scenarios under ASan+UBSan (tools/semantic-fuzz; FUZZ_SEED=N repeats a sequence)
fuzz: $(FUZZERS) build/awesim-asan
	tests/fuzz/run.sh $(FUZZ_SECONDS)
	tools/semantic-fuzz --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) $(TSAN_OBJS:.o=.d) \
         $(TESTS:=.d) $(ASAN_TESTS:=.d) $(BENCHES:=.d) $(FUZZERS:=.d)

# ---- libawesim: the C library of include/awesim.h (src/api), its pkg-config file, install ----
# build/lib/libawesim.a holds the objects the program links; build/lib/libawesim.so the same
# sources compiled with -fPIC (build/pic/) and linked against the shared HDF5 (its static
# archive is not position-independent); the .so exports only the awesim_* symbols.
LIB_A      := build/lib/libawesim.a
LIB_SO     := build/lib/libawesim.so
LIB_SONAME := libawesim.so.0
PIC_OBJS   := $(LIB_SRCS:src/%.c=build/pic/%.o)
ifneq ($(HDF5_PKG),)
  SO_HDF5_LIBS := $(shell $(PKG_CONFIG) --libs $(HDF5_PKG))
else
  SO_HDF5_LIBS := -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5
endif
SO_LIBS := $(filter-out $(HDF5_LIBS),$(DEP_LIBS)) $(SO_HDF5_LIBS) -lz -lm
LIBDIR  ?= $(PREFIX)/lib
# the tools a user runs (PREFIX/bin), and what they need beside them
AWE_TOOLS      := awesim-plot awesim-sweep awesim-replay awesim-controller.py flight-stats
AWE_TOOL_FILES := find-python replay awesim-completion.bash

.PHONY: lib install-lib uninstall-lib
all: lib
test-only: lib
lib: $(LIB_A) $(LIB_SO)

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $(LIB_OBJS)

$(LIB_SO): $(PIC_OBJS) src/api/libawesim.map
	@mkdir -p $(@D)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=src/api/libawesim.map \
	  -o $@ $(PIC_OBJS) $(SO_LIBS)
	$(Q)ln -sf libawesim.so $(@D)/$(LIB_SONAME)

build/pic/%.o: src/%.c
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC $(DEPFLAGS) -c -o $@ $<

install: install-lib
install-lib: lib
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libawesim.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libawesim.so.$(VERSION)
	ln -sf libawesim.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libawesim.so
	install -m 644 include/awesim.h $(DESTDIR)$(PREFIX)/include/awesim.h
	@# awesim.pc from its template: the prefix, the version, the static link's dependencies
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@LIBS_PRIVATE@|$(strip $(DEP_LIBS))|' src/api/awesim.pc.in \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/awesim.pc
	install -m 644 man/awesim.3 $(DESTDIR)$(PREFIX)/share/man/man3/awesim.3
	@# the Python package (PYTHONPATH=PREFIX/lib/awesim/python; it finds PREFIX/lib/libawesim.so)
	install -d $(DESTDIR)$(LIBDIR)/awesim/python/awesim
	install -m 644 python/awesim/*.py $(DESTDIR)$(LIBDIR)/awesim/python/awesim/
	@# the tools, beside each other as in the repository (they find their siblings), each user
	@# command started from PREFIX/bin by a two-line script
	install -d $(DESTDIR)$(LIBDIR)/awesim/tools $(DESTDIR)$(PREFIX)/bin
	cp -R $(addprefix tools/,$(AWE_TOOLS) $(AWE_TOOL_FILES)) $(DESTDIR)$(LIBDIR)/awesim/tools/
	for t in $(AWE_TOOLS); do \
	  printf '#!/bin/sh\nexec "%s" "$$@"\n' "$(LIBDIR)/awesim/tools/$$t" > $(DESTDIR)$(PREFIX)/bin/$$t; \
	  chmod 755 $(DESTDIR)$(PREFIX)/bin/$$t; done

uninstall: uninstall-lib
uninstall-lib:
	rm -f $(DESTDIR)$(LIBDIR)/libawesim.a $(DESTDIR)$(LIBDIR)/libawesim.so.$(VERSION) \
	      $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libawesim.so \
	      $(DESTDIR)$(PREFIX)/include/awesim.h $(DESTDIR)$(LIBDIR)/pkgconfig/awesim.pc \
	      $(DESTDIR)$(PREFIX)/share/man/man3/awesim.3 $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(AWE_TOOLS))
	rm -rf $(DESTDIR)$(LIBDIR)/awesim

-include $(PIC_OBJS:.o=.d)

# ---- the Python package (python/, pyproject.toml) for Debian's python3 ----
# pip builds it offline from the checkout (--no-build-isolation: Debian's python3-setuptools,
# nothing downloaded) with libawesim.so inside, and installs it where that python3 looks:
# PREFIX/lib/pythonX.Y/dist-packages (on Debian's sys.path for PREFIX=/usr/local; elsewhere
# add PYTHON_SITE to PYTHONPATH). `make install` does it too.
PYTHON      ?= /usr/bin/python3
PYTHON_SITE ?= $(PREFIX)/lib/python$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)/dist-packages
.PHONY: install-python uninstall-python
install: install-python
install-python: lib
	@$(PYTHON) -m pip --version >/dev/null 2>&1 || \
	  { echo "install-python: $(PYTHON) has no pip (Debian: apt-get install python3-pip)" >&2; exit 69; }
	$(PYTHON) -m pip install -q --no-build-isolation --no-index --no-deps --no-cache-dir \
	  --disable-pip-version-check --root-user-action=ignore --upgrade \
	  --target $(DESTDIR)$(PYTHON_SITE) ./python
	@rm -rf python/build python/awesim.egg-info
	@echo "install-python: awesim for $(PYTHON) in $(DESTDIR)$(PYTHON_SITE)"

uninstall: uninstall-python
uninstall-python:
	rm -rf $(DESTDIR)$(PYTHON_SITE)/awesim $(DESTDIR)$(PYTHON_SITE)/awesim-*.dist-info
