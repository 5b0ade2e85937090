import Foundation
import Strata
import XCTest

/// A Realm isolated to the main actor (`Realm.asyncOpen(configuration:)`, RealmSwift's
/// `try await Realm()` there): `@MainActor` code uses it across suspensions, and it sees
/// other threads' commits.
final class MainActorRealmTests: ConcurrencyTestCase {
    @MainActor
    func testMainActorCodeUsesItsRealmAcrossSuspensions() async throws {
        let configuration = configuration()
        let realm = try await Realm.asyncOpen(configuration: configuration)
        try await realm.asyncWrite { realm.add(StressItem(value: ["id": 1, "tag": "main"])) }
        try await Task.detached { try ConcurrencyTestCase.insert(2...3, configuration) }.value
        await realm.asyncRefresh()
        XCTAssertEqual(realm.objects(StressItem.self).sorted(byKeyPath: "id").map(\.id), [1, 2, 3])
        let same = try await Realm(configuration: configuration, actor: MainActor.shared)
        XCTAssertEqual(same.objects(StressItem.self).count, 3, "one instance per actor and configuration")
    }

    @MainActor
    func testOpenIsTheMainActorsRealmAndThrowsWhatOpeningThrows() async throws {
        let configuration = configuration()
        try ConcurrencyTestCase.insert(1...2, configuration)
        let realm = try await Realm.open(configuration: configuration)
        XCTAssertEqual(realm.objects(StressItem.self).count, 2)
        let again = try await Realm.asyncOpen(configuration: configuration)
        try await again.asyncWrite { again.add(StressItem(value: ["id": 3, "tag": "main"])) }
        XCTAssertEqual(realm.objects(StressItem.self).count, 3, "one instance for the main actor and the configuration")

        var missing = configuration
        missing.fileURL = URL(fileURLWithPath: "/no/such/directory/file.strata")
        do {
            _ = try await Realm.open(configuration: missing)
            XCTFail("a file in a missing directory cannot be opened")
        } catch let error as Realm.Error {
            XCTAssertEqual(error.code, .fileNotFound, "\(error)")
        }
    }
}
