"""Upstream YCSB bindings as engines of the suite (`--ycsb-home DIR --peer NAME[:prop=value,...]`).

An upstream YCSB release is just another launcher for a cell: the runner builds the peer's
classpath the way upstream's bin/ycsb.sh does (DIR/conf, DIR/lib/*, DIR/<name>-binding/conf and
lib/*; `basic` lives in core), puts this project's `common` jar beside core (our workload class) with
the jars of our launcher's classes (`harness`: the launcher, its JSON exporter and timing layer;
`datadir`, which they call) and runs site.ycsb.Client on the same workload files. The rest of the
pipeline sees one more engine, named `<binding>@ycsb-<version>`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue.engines import REGISTERED, REGISTRY
from ..catalogue.model import peer_id
from ..catalogue.own_workloads import EMBEDDED_WORKLOAD

YCSB_CLIENT = "site.ycsb.Client"
# Our launcher's main (harness/.../CheckedClient.java), with our jars on a peer's classpath: YCSB's Client
# after the same warm-up ours get, on a scratch directory beside the peer's (named by WARMUP_PATH_PROPERTY); a
# peer without a local directory (a remote store) is not warmed, and its first line says so.
CHECKED_CLIENT = "site.ycsb.embedded.CheckedClient"
WARMUP_PATH_PROPERTY = "warmup.pathproperty"
# Our timing layer (harness/.../NanoTimedDB.java): with our jars on a peer's classpath it wraps the
# peer's DB as bin/ycsb's launcher wraps ours, so a peer's figure is on the same in-operation clock.
NANOTIMED_DB = "site.ycsb.embedded.NanoTimedDB"
# Upstream's JDBC binding expects its table and creates none; the same jar's JdbcDBCreateTable makes it.
JDBC_CLIENT = "site.ycsb.db.JdbcDBClient"
JDBC_CREATE_TABLE = "site.ycsb.db.JdbcDBCreateTable"
DATA_DIR_PLACEHOLDER = "{dir}"  # in a peer's property values: the cell's fresh data directory
# The modules whose jars go beside our common jar on a peer's classpath: the launcher's classes (harness) and the
# data directory's checks they call (datadir); common holds the workload class and the binding base they use.
LAUNCHER_MODULES = ("datadir", "harness")

# Upstream bindings that keep their data in a directory, and the property that names it (the registry's
# upstream.dirproperty): the runner gives each cell a fresh one. Our own bindings (installed under any name)
# read `path`, always passed.
EMBEDDED_DIR_PROPERTIES: Mapping[str, str] = {
    e.name: e.upstream_dir_property for e in REGISTERED.engines if e.upstream_dir_property
}

# Upstream bindings whose insert is not an upsert: a second insert of a key fails. A fill that draws its keys
# with replacement (loadorder=replacement, as db_bench does) sends such a peer each key's later draws as updates
# (our workload class's loadrepeats=update), and the cell says so. Class -> (why, the property that makes its
# insert an upsert, if the binding has one).
INSERT_ONLY: Mapping[str, tuple[str, str | None]] = {
    JDBC_CLIENT: ("upstream's JDBC binding inserts with INSERT INTO, which refuses a key already in the table", None),
    "site.ycsb.db.MongoDbClient": (
        "upstream's MongoDB binding inserts with insertOne, which refuses a key already there (mongodb.upsert=true "
        "makes it an upsert)",
        "mongodb.upsert",
    ),
    "site.ycsb.db.AsyncMongoDbClient": (
        "upstream's asynchronous MongoDB binding inserts with insertOne, which refuses a key already there "
        "(mongodb.upsert=true makes it an upsert)",
        "mongodb.upsert",
    ),
}
LOAD_REPEATS = "loadrepeats"  # our workload class: how a load sends a key drawn again (insert or update)

# What only this project's workload class (common/.../workload/EmbeddedWorkload, EMBEDDED_WORKLOAD) understands.
WORKLOAD_CLASS_PROPERTIES = (
    "keyformat",
    "keylength",
    "loadorder",
    "loadseed",
    "valuecompressionratio",
    "deleteproportion",
    "readseqproportion",
    LOAD_REPEATS,
)
# What only this project's bindings understand: the neutral knobs of the workload files and the
# engine-prefixed names. A peer's durability and cache are the ones given with --peer.
OUR_ENGINE_PREFIXES = tuple(f"{name}." for name in REGISTERED.classes if "-" not in name)
BINDING_PROPERTIES = ("destroy", "batchsize", "sync", "compression", "cachesize", "writebuffersize", "recordlayout")


def read_bindings(ycsb_home: Path) -> dict[str, str]:
    """name -> binding class from DIR/bin/bindings.properties (upstream's format, `name:class`)."""
    bindings: dict[str, str] = {}
    for raw in (ycsb_home / "bin" / "bindings.properties").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or ":" not in line:
            continue
        name, _, cls = line.partition(":")
        bindings.setdefault(name.strip(), cls.strip())
    return bindings


def core_version(ycsb_home: Path) -> str:
    """The tree's YCSB version, from its lib/core-<version>.jar."""
    jars = sorted((ycsb_home / "lib").glob("core-*.jar"))
    if not jars:
        raise ValueError(f"{ycsb_home}/lib has no core-<version>.jar: not a YCSB release")
    return jars[0].name[len("core-") : -len(".jar")]


def binding_dir(ycsb_home: Path, name: str) -> Path | None:
    """Where upstream's bin/ycsb.sh looks for a binding: the name up to its first '-' (cassandra-cql ->
    cassandra-binding); `basic` is in core."""
    if name == "basic":
        return None
    return ycsb_home / f"{name.split('-', 1)[0]}-binding"


def parse_peer_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`basic` or `jdbc:db.driver=DRIVER,db.url=jdbc:SUBPROTOCOL:{dir}/x.db` -> (name, properties).
    A comma starts a new property only where the text after it reads `name=`."""
    name, _, rest = spec.partition(":")
    if not name:
        raise ValueError(f"--peer {spec!r}: no binding name")
    props: dict[str, str] = {}
    pieces: list[str] = []
    for piece in rest.split(",") if rest else []:
        head = piece.split("=", 1)[0]
        if pieces and ("=" not in piece or not head or any(c in head for c in "/:;")):
            pieces[-1] += "," + piece  # a comma inside a value (a URL's options)
        else:
            pieces.append(piece)
    for piece in pieces:
        key, sep, value = piece.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--peer {spec!r}: {piece!r} is not prop=value")
        props[key.strip()] = value
    return name, props


@dataclass(frozen=True)
class Peer:
    """One upstream binding of one YCSB tree, with the properties the user gave it."""

    engine: str  # <binding>@ycsb-<version>
    binding: str
    binding_class: str
    ycsb_home: Path
    version: str
    properties: dict[str, str] = field(default_factory=dict)
    common_jar: Path | None = None  # our workload class, beside core
    launcher_jars: tuple[Path, ...] = ()  # our launcher, exporter and timing layer, beside the common jar

    def classpath(self) -> str:
        parts = [self.ycsb_home / "conf", self.ycsb_home / "lib" / "*"]
        if self.common_jar is not None:
            parts.append(self.common_jar)
            parts += self.launcher_jars
        home = binding_dir(self.ycsb_home, self.binding)
        if home is not None:
            parts += [home / "conf", home / "lib" / "*"]
        return os.pathsep.join(str(p) for p in parts)

    def unavailable(self) -> str | None:
        """Why this peer cannot run at all, or None."""
        home = binding_dir(self.ycsb_home, self.binding)
        if home is not None and not (home / "lib").is_dir():
            return f"peer {self.binding}: {home}/lib missing (bin/bindings.properties names it, the tree lacks it)"
        return None

    def describe(self) -> dict:
        """What suite.json keeps of the peer."""
        return {
            "engine": self.engine,
            "binding": self.binding,
            "class": self.binding_class,
            "ycsb_home": str(self.ycsb_home),
            "version": self.version,
            "properties": self.properties,
            "common_jar": str(self.common_jar) if self.common_jar else None,
        }


def insert_only(peer: Peer) -> str | None:
    """Why this peer's insert refuses a key already there, or None when its insert is an upsert."""
    entry = INSERT_ONLY.get(peer.binding_class)
    if entry is None:
        return None
    why, upsert = entry
    if upsert is not None and peer.properties.get(upsert, "").strip().lower() == "true":
        return None
    return why


def _jars(candidates: list[Path]) -> list[Path]:
    return [c for c in candidates if not c.name.endswith(("-tests.jar", "-sources.jar"))]


def find_common_jar(repo: Path) -> Path | None:
    """This project's common jar: the build's, or a distribution's copy beside a binding."""
    candidates = sorted((repo / "common" / "target").glob("ycsb-embedded-common-*.jar"))
    candidates += sorted(repo.glob("*-binding/lib/ycsb-embedded-common-*.jar"))
    candidates = _jars(candidates)
    return candidates[0] if candidates else None


def find_launcher_jars(common_jar: Path) -> tuple[Path, ...]:
    """The jars of LAUNCHER_MODULES from the same place as `common_jar`: beside it (a distribution's
    <binding>/lib holds them all), or in each module's target/ beside common/ (the build's)."""
    found: list[Path] = []
    for module in LAUNCHER_MODULES:
        pattern = f"ycsb-embedded-{module}-*.jar"
        candidates = _jars(sorted(common_jar.parent.glob(pattern)))
        if common_jar.parent.name == "target" and common_jar.parent.parent.name == "common":
            candidates += _jars(sorted((common_jar.parent.parent.parent / module / "target").glob(pattern)))
        found += candidates[:1]
    return tuple(found)


def make_peers(ycsb_home: Path, specs: list[str], common_jar: Path | None) -> list[Peer]:
    """The peers of `--peer` specs on one tree; ValueError naming what is wrong."""
    if not (ycsb_home / "bin" / "bindings.properties").is_file():
        raise ValueError(f"--ycsb-home {ycsb_home}: no bin/bindings.properties (not a YCSB release)")
    bindings = read_bindings(ycsb_home)
    version = core_version(ycsb_home)
    peers: list[Peer] = []
    for spec in specs:
        name, props = parse_peer_spec(spec)
        if name not in bindings:
            raise ValueError(
                f"--peer {name}: not in {ycsb_home}/bin/bindings.properties; it has {', '.join(sorted(bindings))}"
            )
        engine = peer_id(name, version)
        taken = {p.engine for p in peers}
        n = 2
        while engine in taken:  # the same binding twice, say jdbc on two databases
            engine = peer_id(f"{name}-{n}", version)
            n += 1
        launcher = find_launcher_jars(common_jar) if common_jar is not None else ()
        peers.append(Peer(engine, name, bindings[name], ycsb_home, version, props, common_jar, launcher))
    return peers


def peer_properties(peer: Peer, data_dir: Path) -> dict[str, str]:
    """The -p properties a peer's step adds after ours: its fresh data directory under the binding's own
    name (where upstream's binding keeps one; with our common jar, also named for the warm-up), then what the
    user gave, with {dir} filled in."""
    props: dict[str, str] = {}
    if peer.binding in EMBEDDED_DIR_PROPERTIES:
        props[EMBEDDED_DIR_PROPERTIES[peer.binding]] = str(data_dir)
        if peer.common_jar is not None:
            props[WARMUP_PATH_PROPERTY] = EMBEDDED_DIR_PROPERTIES[peer.binding]
    for name, value in peer.properties.items():
        props[name] = value.replace(DATA_DIR_PLACEHOLDER, str(data_dir))
    return props


def workload_class_properties(file_props: Mapping[str, str]) -> dict[str, str]:
    """The properties of stacked workload files that only our workload class reads."""
    if file_props.get("workload") != EMBEDDED_WORKLOAD:
        return {}
    return {n: file_props[n] for n in WORKLOAD_CLASS_PROPERTIES if n in file_props}


def our_binding_properties(props: Mapping[str, str]) -> dict[str, str]:
    """The properties only our bindings read (a peer ignores them)."""
    return {n: v for n, v in props.items() if n in BINDING_PROPERTIES or n.startswith(OUR_ENGINE_PREFIXES)}


# The heap settings bin/ycsb starts its JVMs with: a peer's binding runs under the same ones.
JVM_OPTIONS = REGISTRY.parent / "jvm.options"


def java_main(peer: Peer, main_class: str) -> list[str]:
    """A JVM running main_class on the peer's classpath (JAVA and JAVA_OPTS as in bin/ycsb)."""
    java = os.environ.get("JAVA", "java")
    opts = [f"@{JVM_OPTIONS}", "--enable-native-access=ALL-UNNAMED", *os.environ.get("JAVA_OPTS", "").split()]
    return [java, *opts, "-cp", peer.classpath(), main_class]


def java_command(peer: Peer, phase: str) -> list[str]:
    """The JVM of a peer's step, as upstream's bin/ycsb.sh starts it."""
    mode = ["-load"] if phase == "load" else ["-t"]
    if peer.common_jar is not None:
        db = ["-db", NANOTIMED_DB, "-p", f"nanotimed.db={peer.binding_class}"]
    else:
        db = ["-db", peer.binding_class]
    return [*java_main(peer, CHECKED_CLIENT if peer.common_jar is not None else YCSB_CLIENT), *db, *mode]


def prepare_command(peer: Peer, data_dir: Path, workload_props: Mapping[str, str]) -> list[str] | None:
    """What readies a cell's fresh store before its first step, or None when nothing needs to. Upstream's JDBC
    binding: its own JdbcDBCreateTable, with the peer's connection properties, makes the workload's table with
    `fieldcount` fields (dropping one of that name first), as upstream has its users do by hand."""
    if peer.binding_class != JDBC_CLIENT:
        return None
    # JdbcDBCreateTable refuses a missing db.user, which JdbcDBClient itself takes as empty.
    props = {"db.user": "", **peer_properties(peer, data_dir)}
    command = java_main(peer, JDBC_CREATE_TABLE)
    for name, value in props.items():
        command += ["-p", f"{name}={value}"]
    return command + ["-n", workload_props.get("table", "usertable"), "-f", workload_props.get("fieldcount", "10")]
