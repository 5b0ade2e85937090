import XCTest
@testable import StrataStorage

/// The file the damage tests start from: one class of dogs, one string each.
enum Kennel {
    static let dog = ClassSchema(name: "Dog", properties: [PropertySchema(name: "name", type: .string, id: 0)])

    /// Writes `count` dogs ("dog number i of the kennel") in one commit to a new file at
    /// `path`: for a few thousand, several leaf pages under one branch page.
    static func write(_ count: Int, to path: String) throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        let table = try XCTUnwrap(try txn.table("Dog"))
        for i in 0..<count { _ = try txn.objects.insert(table, values: [.string("dog number \(i) of the kennel")]) }
        try txn.commit(processName: "test", pid: 1)
    }
}
