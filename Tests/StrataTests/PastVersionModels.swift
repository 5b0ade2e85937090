import Foundation
import Strata

/// The history worker's model (Stress/Models.swift), declared again here: the schema is
/// matched by class name, so this process reads what the workers write.
final class HistoryNode: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var group = ""
    @Persisted var score = 0
    @Persisted var weight = 0.0
    @Persisted var next: HistoryNode?
    @Persisted var children: List<HistoryNode>
    @Persisted var labels: MutableSet<String>
    @Persisted var counts: Map<String, Int>
    @Persisted(originProperty: "next") var previous: LinkingObjects<HistoryNode>
}

/// The history worker's note, declared again here.
final class HistoryNote: Object {
    @Persisted var text = ""
    @Persisted var node: HistoryNode?
}

/// What a Realm of `HistoryNode`s and `HistoryNote`s answers: every object with its links,
/// list, set, map and backlinks, and a set of queries, sorts and aggregates (through indexes,
/// links, lists and backlinks), one line each, so two Realms are compared line by line.
enum HistoryState {
    static func lines(_ realm: Realm) -> [String] {
        let nodes = realm.objects(HistoryNode.self)
        var lines = nodes.sorted(byKeyPath: "id").map { n in
            "node \(n.id) group=\(n.group) score=\(n.score) weight=\(n.weight) next=\(n.next.map { "\($0.id)" } ?? "nil") "
                + "children=\(n.children.map(\.id)) labels=\(Array(n.labels).sorted()) "
                + "counts=\(n.counts.map { "\($0.key):\($0.value)" }.sorted()) previous=\(n.previous.map(\.id).sorted())"
        }
        lines += realm.objects(HistoryNote.self).sorted(byKeyPath: "text").map { "note \($0.text) node=\($0.node.map { "\($0.id)" } ?? "nil")" }
        let byGroup = nodes.filter("group == 'a'").sorted(by: [SortDescriptor(keyPath: "score"), SortDescriptor(keyPath: "id")])
        lines += [
            "count \(nodes.count) notes \(realm.objects(HistoryNote.self).count)",
            "group a by score \(byGroup.map(\.id))",
            "heaviest \(nodes.sorted(by: [SortDescriptor(keyPath: "weight", ascending: false), SortDescriptor(keyPath: "id")]).prefix(5).map(\.id))",
            "score > 50: \(nodes.filter("score > 50").count)",
            "sum \(nodes.sum(ofProperty: "score") as Int) max \(String(describing: nodes.max(ofProperty: "weight") as Double?)) "
                + "average \(String(describing: nodes.average(ofProperty: "score") as Double?))",
            "next in b: \(nodes.filter("next.group == 'b'").map(\.id).sorted())",
            "children over 80: \(nodes.filter("ANY children.score > 80").map(\.id).sorted())",
            "linked to: \(nodes.filter("previous.@count > 0").map(\.id).sorted())",
            "labelled x: \(nodes.filter("ANY labels == 'x'").map(\.id).sorted())",
            "notes without node: \(realm.objects(HistoryNote.self).filter("node == nil").count)",
        ]
        return lines
    }
}
