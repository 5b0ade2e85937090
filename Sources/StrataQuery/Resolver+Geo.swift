import Foundation
import StrataStorage

// Geospatial queries: `location GEOWITHIN %@` (or `IN %@`) with a box, circle or polygon
// argument, where `location` links to an embedded object holding a point as RealmSwift
// stores one: `coordinates` (a list of doubles, longitude first) and `type` ("Point").

/// A point held by an embedded object, tested against a region (on that object).
package struct GeoWithin: Equatable, Sendable {
    /// The region the point must lie in.
    package let region: GeoRegion
    /// The embedded class holding the point.
    package let owner: String
    /// The object's `coordinates` list: longitude, latitude (and an altitude, ignored).
    package let coordinates: PropertySchema
    /// The object's `type` property, which must be "Point".
    package let type: PropertySchema

    /// Whether `longitude`, `latitude` (the list's values) and `type` make a point that
    /// `test` (the region's `pointTest()`) accepts.
    static func matches(_ coordinates: [Value], type: Value, _ test: (Double, Double) -> Bool) -> Bool {
        guard case .string("Point") = type, coordinates.count >= 2,
              case .double(let longitude) = coordinates[0], case .double(let latitude) = coordinates[1] else { return false }
        return test(latitude, longitude)
    }
}

extension Resolver {
    /// The region argument of `node` when it is `… GEOWITHIN %@` or `… IN %@` with a region.
    func geoRegion(of node: ComparisonNode) throws(QueryError) -> GeoRegion? {
        // Looked at without recording a read: an `IN` with any other argument is prepared as usual.
        guard node.op == .in, case .argument(let i, let position) = node.rhs, i < arguments.count, arguments[i] is GeoRegion else {
            return nil
        }
        return try argument(i, at: position) as? GeoRegion
    }

    /// `path GEOWITHIN region`: the path must end at a link to an embedded object holding a
    /// point (`coordinates` and `type`), and a polygon must be a valid one.
    package func geoWithin(path steps: [LinkStep], _ link: PropertySchema, _ region: GeoRegion, text: String) throws(QueryError) -> ResolvedPredicate {
        guard link.type == .link, !link.isList, let target = link.linkTarget else {
            throw QueryError("A GEOWITHIN query needs a link to an embedded object holding a point, but '\(text)' is not a link", at: nil)
        }
        let embedded = try classSchema(target, at: 0)
        guard embedded.isEmbedded else {
            throw QueryError("A GEOWITHIN query can only operate on a link to an embedded class but '\(target)' is at the top level", at: nil)
        }
        guard let coordinates = embedded.property(named: "coordinates"), coordinates.isList, !coordinates.isSet,
              !coordinates.isMap, coordinates.type == .double,
              let type = embedded.property(named: "type"), type.type == .string, !type.isList else {
            throw QueryError("Query '\(text) GEOWITHIN \(region)' links to data in the wrong format for a geoWithin query", at: nil)
        }
        try region.validate()
        return .path(steps + [.link(link)], .any, .geoWithin(GeoWithin(region: region, owner: target, coordinates: coordinates, type: type)))
    }

    /// `geoWithin(path:…)` for a key path written in a query.
    func geoWithin(_ node: ComparisonNode, _ region: GeoRegion) throws(QueryError) -> ResolvedPredicate {
        guard node.quantifier == nil, case .keyPath(let written) = node.lhs else {
            throw QueryError("the left side of GEOWITHIN must be a link to an embedded object holding a point", at: node.lhs.position)
        }
        let k = try path(written)
        guard case .property(let link) = k.end, !k.isToMany else {
            throw QueryError("A GEOWITHIN query needs a link to an embedded object holding a point, but '\(k.text)' is not one", at: written.position)
        }
        do {
            return try geoWithin(path: k.steps, link, region, text: k.text)
        } catch {
            throw QueryError(error.message, at: written.position)
        }
    }
}
