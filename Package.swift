// swift-tools-version:6.0
// Strata: an embedded object database for Swift on Linux, with RealmSwift's API, on LMDB.
//
// Layers (arrows point one way):
//   strata (CLI), strata-bench, strata-stress → Strata → (StrataQuery, StrataStorage) → LMDB → CLMDB
//   StrataStorage, StrataQuery, Strata → StrataValues (the public value types, Foundation only)
//   LMDB → CStrataFaultGuard (LMDB's page reads, ended by an error when LMDB faults on damage)
//   LMDB → CStrataKeyOrder (LMDB's key order, computed in registers for 8-byte keys)
//   StrataStorage → CStrataSync (futex and shared-memory atomics for the `.lock` file)
//   StrataStorage → CStrataChecksum (CRC32C, the checksum sealing every stored record)
//   StrataStorage → CStrataCrypto (AES-256-GCM of encrypted files on AES-NI or libcrypto, HMAC-SHA-256 on libcrypto SHA-256)
//   strata (CLI) → StrataReplication → (StrataStorage, CLibPQ): pushing history to PostgreSQL, following, mirroring
//   strata-bench → StrataReplication, StrataTestSupport (the throwaway PostgreSQL of --replication)
import PackageDescription

let package = Package(
    name: "Strata",
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .executable(name: "strata", targets: ["StrataCLI"]),
        .executable(name: "strata-bench", targets: ["StrataBench"]),
        .executable(name: "strata-stress", targets: ["StrataStress"]),
        .library(name: "StrataReplication", targets: ["StrataReplication"]),
    ],
    targets: [
        // Debian's liblmdb-dev, the page store.
        .systemLibrary(name: "CLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        // Debian's libsqlite3-dev, used only as a baseline by the benchmark.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Debian's libpq-dev, the PostgreSQL client library replication talks through.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // A thin, typed Swift binding: the only target that imports CLMDB.
        .target(name: "LMDB", dependencies: ["CLMDB", "CStrataFaultGuard", "CStrataKeyOrder"], swiftSettings: swift5),
        // Page reads that end with an error instead of the process when LMDB faults on a
        // damaged page (signal handlers and jumps, which Swift cannot write).
        .target(name: "CStrataFaultGuard", dependencies: ["CLMDB"]),
        // LMDB's own key order for 8-byte keys as two integer loads rather than a `memcmp`
        // call per comparison of a tree search.
        .target(name: "CStrataKeyOrder", dependencies: ["CLMDB"]),
        // The futex system call and atomics on shared memory, which Swift cannot call directly.
        .target(name: "CStrataSync"),
        // The classes the program declares, from the Swift runtime's type metadata records.
        .target(name: "CStrataRuntime"),
        // CRC32C with the SSE4.2 instruction (a table elsewhere), which Swift cannot emit itself.
        .target(name: "CStrataChecksum"),
        // Debian's libssl-dev: AES-256-GCM record seals and HMAC-SHA-256 index keys of
        // encrypted files, with contexts reused across records.
        .target(name: "CStrataCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // The public value types every layer shares (ObjectId, Decimal128), on Foundation alone.
        .target(name: "StrataValues", swiftSettings: swift5),
        // Values, row and key encodings, schema, tables, indexes, history, the coordination file.
        .target(name: "StrataStorage", dependencies: ["StrataValues", "LMDB", "CStrataSync", "CStrataChecksum", "CStrataCrypto"], swiftSettings: swift5),
        // The query language: lexer, parser, resolver, evaluator.
        .target(name: "StrataQuery", dependencies: ["StrataValues", "StrataStorage"], swiftSettings: swift5),
        // The public, RealmSwift-compatible API.
        .target(name: "Strata", dependencies: ["StrataValues", "StrataStorage", "StrataQuery", "CStrataRuntime"], swiftSettings: swift5),
        // Shipping a file's history entries to a log table in PostgreSQL (docs/REPLICATION.md).
        .target(name: "StrataReplication", dependencies: ["Strata", "StrataValues", "StrataStorage", "CLibPQ"], swiftSettings: swift5),
        .executableTarget(name: "StrataCLI", dependencies: ["Strata", "StrataValues", "StrataStorage", "StrataQuery", "StrataReplication"],
                          swiftSettings: swift5),
        .executableTarget(name: "StrataBench", dependencies: ["Strata", "StrataStorage", "StrataReplication", "StrataTestSupport", "LMDB", "CLMDB", "CSQLite"],
                          swiftSettings: swift5),
        .executableTarget(name: "StrataStress", dependencies: ["Strata", "StrataStorage"], path: "Stress",
                          swiftSettings: swift5),
        .testTarget(name: "StrataValuesTests", dependencies: ["StrataValues"], swiftSettings: swift5),
        .testTarget(name: "StrataStorageTests", dependencies: ["StrataStorage", "StrataTestSupport"], swiftSettings: swift5),
        .testTarget(name: "StrataQueryTests", dependencies: ["StrataQuery"], swiftSettings: swift5),
        // What the test targets share: running the built executables as child processes, and
        // damaging a file's pages.
        .target(name: "StrataTestSupport", path: "Tests/StrataTestSupport", swiftSettings: swift5),
        .testTarget(name: "StrataTests", dependencies: ["Strata", "StrataStorage", "LMDB", "StrataStress", "StrataCLI", "StrataTestSupport",
                                                        "StrataReplication"],
                    swiftSettings: swift5),
        // Actor-isolated Realms and async notification streams, in the Swift 6 language mode
        // that async clients use.
        .testTarget(name: "StrataConcurrencyTests", dependencies: ["Strata", "StrataStress", "StrataTestSupport"],
                    swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)

/// Swift 5 language mode: the public API is RealmSwift's thread-confined, class-based one,
/// whose checks are run-time (thread confinement preconditions), not compile-time isolation.
var swift5: [SwiftSetting] { [.swiftLanguageMode(.v5)] }
