# Spack recipe for callscope (https://spack.readthedocs.io): copy this
# folder into a Spack repository (`spack repo create`; packages/callscope/
# package.py) and `spack install callscope`.  Every format reader is built
# in; the libraries each one needs are dependencies (the variants below
# only add what the tests need).
from spack.package import *


class Callscope(AutotoolsPackage):
    """Terminal viewer for HPC and GPU performance profiles and traces:
    HPCToolkit, Cube4, rocpd/.rpd, Nsight Systems SQLite, DCPI and
    Extra-P sets, in a terminal over SSH and in scripts; run comparison;
    exports to folded stacks, speedscope, pprof and Chrome trace JSON."""

    homepage = "https://example.org/callscope"
    url = "https://example.org/callscope/callscope-0.1.0.tar.gz"

    maintainers("callscope-devel")

    version("0.1.0", sha256="0" * 64)  # replace with the release tarball's

    variant("tests", default=False, description="Build the unit tests (cmocka)")

    depends_on("autoconf", type="build")
    depends_on("automake", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("protobuf-c+compiler", type=("build", "link"))  # pprof export

    depends_on("ncurses+termlib")  # the viewer (ncursesw)
    depends_on("curl")             # URLs: HTTP range reads, sftp
    depends_on("libarchive")       # databases inside archives
    depends_on("zlib-api")
    depends_on("sqlite")           # rocpd, .rpd, Nsight exports
    depends_on("expat")            # HPCToolkit experiment.xml
    depends_on("libxml2")          # Cube anchors
    depends_on("libyaml")          # HPCToolkit METRICS.yaml
    depends_on("jansson")          # JSON output, Extra-P JSON
    depends_on("elfutils")         # DCPI images (libelf, libdw)
    depends_on("capstone")         # DCPI listings
    depends_on("lapack")           # Extra-P models (LAPACKE)
    depends_on("otf2")             # Score-P OTF2 traces
    depends_on("msgpack-c")        # Extra-Prof sets (MessagePack)
    depends_on("pcre2")            # CubePL regexes (bounded cost)
    depends_on("cmocka", when="+tests", type="test")

    def autoreconf(self, spec, prefix):
        autoreconf("-fi")

    def configure_args(self):
        return []

    def check(self):
        # the full suite needs the shared corpus beside the sources
        make("check", "TESTS=tests/check-layers.sh tests/test-cli.sh")
