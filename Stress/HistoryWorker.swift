import Foundation
import Strata
import StrataStorage

/// `history --file F`: makes random commits on `HistoryNode` and `HistoryNote` objects when
/// told, for the tests that read past versions. Prints `READY version=<v>`, then reads
/// commands from stdin: `step <seed>` makes one commit of one to four random changes chosen
/// by `seed` (inserts, updates, deletes, link, list, set and map changes, and now and then
/// the clearing of every note) and prints `OK version=<v>`; `quit` prints `BYE`.
enum HistoryWorker {
    /// The ids the nodes take.
    static let ids = 1...24

    static func run(_ options: Arguments) throws {
        let realm = try Workers.open(options, types: [HistoryNode.self, HistoryNote.self])
        emit("READY version=\(realm.version)")
        while let line = readLine() {
            let words = line.split(separator: " ")
            if words.first == "quit" { emit("BYE"); return }
            guard words.count == 2, words[0] == "step", let seed = UInt64(words[1]) else {
                emit("ERROR unknown command '\(line)'")
                continue
            }
            var random = SplitMix64(seed: seed)
            try realm.write {
                for _ in 0...Int.random(in: 0...3, using: &random) { change(realm, &random) }
            }
            emit("OK version=\(realm.version)")
        }
    }

    /// Makes one random change.
    static func change(_ realm: Realm, _ random: inout SplitMix64) {
        let nodes = realm.objects(HistoryNode.self)
        let id = Int.random(in: ids, using: &random)
        func anyNode() -> HistoryNode? { realm.object(ofType: HistoryNode.self, forPrimaryKey: Int.random(in: ids, using: &random)) }
        guard let node = realm.object(ofType: HistoryNode.self, forPrimaryKey: id) else {
            let new = HistoryNode(value: ["id": id, "group": ["a", "b", "c"].randomElement(using: &random)!,
                                         "score": Int.random(in: 0...100, using: &random), "weight": Double(Int.random(in: 0...40, using: &random)) / 4])
            new.next = anyNode()
            realm.add(new)
            return
        }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: realm.delete(node)
        case 1: node.score = Int.random(in: 0...100, using: &random)
        case 2: node.group = ["a", "b", "c", "d"].randomElement(using: &random)!
        case 3: node.weight = Double(Int.random(in: 0...40, using: &random)) / 4
        case 4: node.next = anyNode()
        case 5: if let child = anyNode() { node.children.append(child) }
        case 6: if !node.children.isEmpty { node.children.remove(at: Int.random(in: 0..<node.children.count, using: &random)) }
        case 7: if node.children.count > 1 { node.children.move(from: 0, to: node.children.count - 1) }
        case 8: node.labels.insert(["x", "y", "z"].randomElement(using: &random)!)
        case 9: node.labels.remove(["x", "y", "z"].randomElement(using: &random)!)
        case 10: node.counts[["k", "m", "n"].randomElement(using: &random)!] = Int.random(in: 0...9, using: &random)
        default:
            if Int.random(in: 0..<3, using: &random) == 0 {
                realm.delete(realm.objects(HistoryNote.self))
            } else {
                realm.add(HistoryNote(value: ["text": "note \(nodes.count)-\(Int.random(in: 0...999, using: &random))", "node": node]))
            }
        }
    }
}
