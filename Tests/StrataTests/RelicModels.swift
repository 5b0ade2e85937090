import Foundation
import Strata
import StrataStorage

/// An object with a property of every value type, a link, and lists: what the damaged-file
/// corpus stores, damages and reads back.
final class Relic: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var flag = false
    @Persisted var count = 0
    @Persisted var ratio: Float = 0
    @Persisted var weight = 0.0
    @Persisted var label = ""
    @Persisted var blob = Data()
    @Persisted var found = Date(timeIntervalSince1970: 0)
    @Persisted var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    @Persisted var oid = ObjectId("000000000000000000000000")
    @Persisted var price = Decimal128()
    @Persisted var anything: AnyRealmValue = .none
    @Persisted var note: String?
    @Persisted var keeper: Keeper?
    @Persisted var sizes: List<Int>
}

/// An owner of relics: a list of objects, a set and a map.
final class Keeper: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var relics: List<Relic>
    @Persisted var tags: MutableSet<String>
    @Persisted var marks: Map<String, Int>
}

/// The relic types, for configurations.
let relicTypes: [ObjectBase.Type] = [Relic.self, Keeper.self]

enum RelicFile {
    /// Fills `realm` with `count` relics and a few keepers over several commits (inserts,
    /// updates and deletes, so the history has entries of each kind), from `seed`.
    static func fill(_ realm: Realm, count: Int, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func bytes(_ n: Int) -> Data { Data((0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) }) }
        for batch in 0..<4 {
            try realm.write {
                let keeper = realm.create(Keeper.self, value: ["id": batch, "name": "keeper \(batch)"])
                for i in 0..<count / 4 {
                    let id = batch * count / 4 + i
                    let relic = Relic()
                    relic.id = id
                    relic.flag = random.next() & 1 == 0
                    relic.count = Int(truncatingIfNeeded: random.next() >> 20)
                    relic.ratio = Float(id) / 7
                    relic.weight = Double(random.next() % 100_000) / 3
                    relic.label = "relic \(id) " + String(repeating: "é", count: id % 9)
                    relic.blob = bytes(id % 40)
                    relic.found = Date(timeIntervalSince1970: Double(1_600_000_000 + id * 3_600))
                    relic.uuid = UUID(uuid: (UInt8(id & 0xFF), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(batch)))
                    relic.oid = try ObjectId(string: String(format: "5f5e1000%016x", id))
                    relic.price = Decimal128(number: NSNumber(value: id * 25))
                    relic.anything = [AnyRealmValue.int(id), .string("any \(id)"), .double(Double(id) / 2), .none][id % 4]
                    relic.note = id % 3 == 0 ? nil : "note \(id)"
                    relic.keeper = keeper
                    relic.sizes.append(objectsIn: (0..<(id % 7)).map { $0 * id })
                    realm.add(relic)
                    keeper.relics.append(relic)
                    keeper.tags.insert("tag \(id % 5)")
                    keeper.marks["m\(id % 6)"] = id
                }
            }
        }
        try realm.write {
            for relic in realm.objects(Relic.self).filter("id < 10") { relic.label += " (seen)" }
        }
        try realm.write(withDescription: "cleanup") {
            realm.delete(realm.objects(Relic.self).filter("id >= %@ AND id < %@", count / 2, count / 2 + 5))
        }
    }

    /// One write that changes a filled file (`fill` with `count` 240) the same way every time:
    /// updates rows, deletes objects that lists and a link hold, adds objects to a list, a
    /// set and a map, and deletes a keeper that relics link to.
    static func change(_ realm: Realm) throws {
        try realm.write {
            for relic in realm.objects(Relic.self).filter("id >= 20 AND id < 40") {
                relic.count += 1
                relic.label += " (changed)"
                relic.sizes.append(relic.id)
            }
            realm.delete(realm.objects(Relic.self).filter("id >= 200 AND id < 210"))
            let keeper = realm.object(ofType: Keeper.self, forPrimaryKey: 1)
            for id in 300..<310 {
                let relic = realm.create(Relic.self, value: ["id": id, "label": "new \(id)", "keeper": keeper as Any])
                keeper?.relics.insert(relic, at: 0)
            }
            keeper?.tags.insert("new tag")
            keeper?.marks["new"] = 1
            keeper?.relics.move(from: 0, to: 5)
            realm.delete(realm.objects(Keeper.self).filter("id == 3"))
        }
    }

    /// Every object of the file, one line each, in class and primary-key order, every
    /// property spelled out exactly (bit patterns for floating-point values).
    static func dump(_ realm: Realm) -> [String] {
        var lines: [String] = []
        for relic in realm.objects(Relic.self).sorted(byKeyPath: "id") {
            let fields: [String] = [
                "\(relic.id)", "\(relic.flag)", "\(relic.count)", "\(relic.ratio.bitPattern)", "\(relic.weight.bitPattern)",
                relic.label, relic.blob.base64EncodedString(), "\(relic.found.timeIntervalSince1970.bitPattern)",
                relic.uuid.uuidString, relic.oid.stringValue, relic.price.stringValue, "\(relic.anything)",
                relic.note ?? "<nil>", relic.keeper.map { "\($0.id)" } ?? "<nil>", "\(Array(relic.sizes))",
            ]
            lines.append("Relic " + fields.joined(separator: "|"))
        }
        for keeper in realm.objects(Keeper.self).sorted(byKeyPath: "id") {
            let marks = keeper.marks.asKeyValueSequence().map { "\($0.key)=\($0.value)" }
            lines.append("Keeper \(keeper.id)|\(keeper.name)|\(keeper.relics.map(\.id))|\(Array(keeper.tags).sorted())|\(marks)")
        }
        // Lookups by primary key and by a query on it, which search the tables' trees
        // rather than walk them: the ids each finds, over a range wider than the ids stored.
        lines.append("Relic lookups \((0..<320).filter { realm.object(ofType: Relic.self, forPrimaryKey: $0) != nil })")
        lines.append("Keeper lookups \((0..<8).filter { realm.object(ofType: Keeper.self, forPrimaryKey: $0) != nil })")
        lines.append("Relic queries \((0..<320).filter { realm.objects(Relic.self).filter("id == %@", $0).count == 1 })")
        lines.append("Relic keepers \((0..<8).map { realm.objects(Relic.self).filter("keeper.id == %@", $0).count })")
        return lines
    }
}
