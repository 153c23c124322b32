# Shared libraries and `make install` (docs/install.md).
#
# libpathways.so.1 holds the runtime with the program builder, the
# device library and the firmware's user-space build (PATHWAYS_LIBS);
# libpwtpu.so.1 the device library and the program builder. Each exports
# only what its installed headers declare, under a version node
# (runtime/libpathways.map, lib/libpwtpu.map). Every object is built
# with -fPIC (USER_CFLAGS), so the archives and the shared libraries are
# made of the same objects, and -fno-semantic-interposition, so that
# calls within a file stay direct and inlinable as in an executable
# (nothing can interpose: only the API is exported).
#
#   make install [DESTDIR=...] [PREFIX=/usr/local] [LIBDIR=$(PREFIX)/lib]
#
# installs the headers under $(PREFIX)/include/pathways-1 (pkg-config's
# --cflags points there: #include <pathways/pathways.h>), the shared
# libraries with their soname links, self-contained static archives,
# pkg-config files, the tools, pathwaysd and the man pages; the module's
# source with its dkms.conf in /usr/src/pwtpu-VERSION; the udev rule, the
# systemd units, the sysusers.d entry for the pwtpu group and the
# pathways user, modules-load.d, and commented examples of
# /etc/modprobe.d/pwtpu.conf and /etc/pathways/pathwaysd.conf (never
# over an operator's own). The public
# headers need liburing's (pwtpu_dev.h) and nothing else: the libraries
# the runtime links go to Libs.private only, never into users' --cflags.
PWTPU_VERSION := 0.1.0
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
# With PREFIX=/usr, where Debian 12's udev, systemd, sysusers,
# modules-load and DKMS look for a package's files; with any other
# PREFIX, the same places under it, so that an install outside /usr
# never writes where dpkg keeps its own (and needs no root).
ifeq ($(PREFIX),/usr)
SYSCONFDIR ?= /etc
SYSROOT_LIB := /lib
else
SYSCONFDIR ?= $(PREFIX)/etc
SYSROOT_LIB := $(PREFIX)/lib
endif
UDEVRULESDIR ?= $(SYSROOT_LIB)/udev/rules.d
SYSTEMDUNITDIR ?= $(SYSROOT_LIB)/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
DKMS_SRC := $(PREFIX)/src/pwtpu-$(PWTPU_VERSION)
INSTALL ?= install

SO_PATHWAYS := $(BUILD)/libpathways.so.$(PWTPU_VERSION)
SO_PWTPU := $(BUILD)/libpwtpu.so.$(PWTPU_VERSION)
SHARED_LIBS := $(SO_PATHWAYS) $(SO_PWTPU)

# -z defs: a shared library that needs a symbol nobody gives fails here,
# not in its users' link.
SO_LDFLAGS := -shared -Wl,-z,defs -Wl,--as-needed

$(SO_PATHWAYS): $(PATHWAYS_LIBS) runtime/libpathways.map
	$(CC) $(SO_LDFLAGS) -Wl,-soname,libpathways.so.1 \
		-Wl,--version-script=runtime/libpathways.map -o $@ \
		-Wl,--whole-archive $(PATHWAYS_LIBS) -Wl,--no-whole-archive \
		$(USER_LDLIBS)

$(SO_PWTPU): $(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a lib/libpwtpu.map
	$(CC) $(SO_LDFLAGS) -Wl,-soname,libpwtpu.so.1 \
		-Wl,--version-script=lib/libpwtpu.map -o $@ \
		-Wl,--whole-archive $(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a \
		-Wl,--no-whole-archive -luring $(LDFLAGS)

shared: $(SHARED_LIBS)

# The installed static libpathways.a holds all four archives, so that
# it and `pkg-config --static --libs-only-l pathways` are all a static
# link needs; libpwtpu.a holds the device library and the builder.
$(BUILD)/install/libpathways.a: $(PATHWAYS_LIBS)
$(BUILD)/install/libpwtpu.a: $(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a
$(BUILD)/install/%.a:
	@mkdir -p $(dir $@)
	rm -f $@
	{ echo "CREATE $@"; for a in $^; do echo "ADDLIB $$a"; done; \
	  echo SAVE; echo END; } | $(AR) -M

INSTALL_HEADERS := include/uapi/pwtpu.h include/pathways/pathways.h \
	include/pathways/rm.h include/pwtpu/pwtpu_dev.h include/pwtpu/pwprog.h
INSTALL_BINS := pwtpu-smi pwbench pwtrace pwhlo
INSTALL_MAN := $(wildcard man/*.[1-8])

install: shared $(BUILD)/install/libpathways.a $(BUILD)/install/libpwtpu.a \
		$(patsubst %,$(BUILD)/tools/%,$(INSTALL_BINS)) \
		$(BUILD)/tools/pathwaysd
	for h in $(INSTALL_HEADERS); do \
		$(INSTALL) -D -m 644 $$h \
			$(DESTDIR)$(PREFIX)/include/pathways-1/$${h#include/}; \
	done
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)/pkgconfig
	for l in pathways pwtpu; do \
		$(INSTALL) -m 755 $(BUILD)/lib$$l.so.$(PWTPU_VERSION) \
			$(DESTDIR)$(LIBDIR)/; \
		ln -sf lib$$l.so.$(PWTPU_VERSION) $(DESTDIR)$(LIBDIR)/lib$$l.so.1; \
		ln -sf lib$$l.so.1 $(DESTDIR)$(LIBDIR)/lib$$l.so; \
		$(INSTALL) -m 644 $(BUILD)/install/lib$$l.a $(DESTDIR)$(LIBDIR)/; \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
			-e 's|@VERSION@|$(PWTPU_VERSION)|' \
			-e 's|@LIBS_PRIVATE@|$(filter -l%,$(USER_LDLIBS))|' \
			packaging/$$l.pc.in \
			> $(DESTDIR)$(LIBDIR)/pkgconfig/$$l.pc; \
	done
	$(INSTALL) -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin
	$(INSTALL) -m 755 $(patsubst %,$(BUILD)/tools/%,$(INSTALL_BINS)) \
		$(DESTDIR)$(PREFIX)/bin/
	$(INSTALL) -m 755 $(BUILD)/tools/pathwaysd $(DESTDIR)$(PREFIX)/sbin/
	for m in $(INSTALL_MAN); do \
		$(INSTALL) -D -m 644 $$m \
			$(DESTDIR)$(PREFIX)/share/man/man$${m##*.}/$${m#man/}; \
	done

# The module's sources as DKMS builds them: the top-level Kbuild, the
# driver, the firmware (not its user-space platform) and the UAPI header.
DKMS_FILES := Kbuild $(filter-out %.mod.c,$(wildcard driver/*.[ch])) driver/Kbuild \
	$(wildcard firmware/*.[ch]) include/uapi/pwtpu.h

install: install-system install-dkms

install-system:
	$(INSTALL) -D -m 644 packaging/udev/60-pwtpu.rules \
		$(DESTDIR)$(UDEVRULESDIR)/60-pwtpu.rules
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' packaging/systemd/pathwaysd@.service \
		| $(INSTALL) -D -m 644 /dev/stdin \
		$(DESTDIR)$(SYSTEMDUNITDIR)/pathwaysd@.service
	$(INSTALL) -D -m 644 \
		packaging/systemd/pathwaysd@worker-devices.conf \
		$(DESTDIR)$(SYSTEMDUNITDIR)/pathwaysd@worker.service.d/devices.conf
	$(INSTALL) -D -m 644 packaging/pwtpu-sysusers.conf \
		$(DESTDIR)$(SYSUSERSDIR)/pwtpu.conf
	$(INSTALL) -D -m 644 packaging/pwtpu-modules-load.conf \
		$(DESTDIR)$(MODULESLOADDIR)/pwtpu.conf
	$(INSTALL) -D -m 644 packaging/pwtpu-modprobe.conf \
		$(DESTDIR)$(PREFIX)/share/doc/pwtpu/examples/modprobe.d-pwtpu.conf
	$(INSTALL) -D -m 644 packaging/pathwaysd.conf \
		$(DESTDIR)$(PREFIX)/share/doc/pwtpu/examples/pathwaysd.conf
	test -e $(DESTDIR)$(SYSCONFDIR)/modprobe.d/pwtpu.conf || \
		$(INSTALL) -D -m 644 packaging/pwtpu-modprobe.conf \
			$(DESTDIR)$(SYSCONFDIR)/modprobe.d/pwtpu.conf
	test -e $(DESTDIR)$(SYSCONFDIR)/pathways/pathwaysd.conf || \
		$(INSTALL) -D -m 644 packaging/pathwaysd.conf \
			$(DESTDIR)$(SYSCONFDIR)/pathways/pathwaysd.conf

install-dkms:
	for f in $(DKMS_FILES); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(DKMS_SRC)/$$f; \
	done
	sed 's|@VERSION@|$(PWTPU_VERSION)|' packaging/dkms.conf \
		> $(DESTDIR)$(DKMS_SRC)/dkms.conf

.PHONY: shared install install-system install-dkms

# `make deb`: the Debian packages (debian/) from a copy of the tree in
# build/deb/pwtpu-VERSION, so that dpkg-buildpackage's results land in
# build/deb/ and the tree's own build/ is not touched.
DEB_DIR := $(BUILD)/deb
deb:
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/pwtpu-$(PWTPU_VERSION)
	tar -c --exclude=./build --exclude=./.git --exclude='*.o' \
		--exclude='*.ko' --exclude='*.cmd' --exclude='*.mod*' . | \
		tar -x -C $(DEB_DIR)/pwtpu-$(PWTPU_VERSION)
	cd $(DEB_DIR)/pwtpu-$(PWTPU_VERSION) && \
		dpkg-buildpackage -us -uc -b >../build.log 2>&1 || \
		{ tail -30 ../build.log; exit 1; }
	tools/lint-deb $(DEB_DIR)/pwtpu_$(PWTPU_VERSION)_*.changes \
		$(DEB_DIR)/lintian.txt

.PHONY: deb
