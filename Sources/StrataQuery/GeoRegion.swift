import Foundation

/// A region of the Earth's surface a `GEOWITHIN` query tests points against: a latitude and
/// longitude box, a spherical cap (circle) or a polygon whose edges are great-circle arcs,
/// with holes. Points are (latitude, longitude) in degrees.
package enum GeoRegion: Equatable, Sendable, CustomStringConvertible {
    /// Latitudes from `south` to `north`, longitudes from `west` east to `east` (across the
    /// antimeridian when `west > east`).
    case box(south: Double, west: Double, north: Double, east: Double)
    /// The points within `radius` radians of the centre, along the surface.
    case circle(latitude: Double, longitude: Double, radius: Double)
    /// The inside of the first ring less the inside of each other ring. Each ring is closed
    /// (its last point is its first).
    case polygon([[GeoCoordinate]])

    /// Whether the point at `latitude`, `longitude` (degrees) lies in the region.
    package func contains(latitude: Double, longitude: Double) -> Bool { pointTest()(latitude, longitude) }

    /// `contains` with the region's rings and centre prepared once, for testing many points.
    package func pointTest() -> @Sendable (_ latitude: Double, _ longitude: Double) -> Bool {
        switch self {
        case let .box(south, west, north, east):
            return { latitude, longitude in
                guard latitude >= south && latitude <= north else { return false }
                return west <= east ? longitude >= west && longitude <= east : longitude >= west || longitude <= east
            }
        case let .circle(lat, lon, radius):
            let center = SphereVector(latitude: lat, longitude: lon)
            return { latitude, longitude in center.angle(to: SphereVector(latitude: latitude, longitude: longitude)) <= radius }
        case .polygon(let rings):
            let loops = rings.map(GeoRing.init)
            return { latitude, longitude in
                let point = SphereVector(latitude: latitude, longitude: longitude)
                guard let outer = loops.first, outer.contains(point) else { return false }
                return !loops.dropFirst().contains { $0.contains(point) }
            }
        }
    }

    /// Checks a polygon as a query may use it: no ring crosses itself, no edge is repeated,
    /// every hole lies inside the outer ring, and no hole lies inside another. The error
    /// names the region and what is wrong with it.
    package func validate() throws(QueryError) {
        guard case .polygon(let rings) = self else { return }
        let loops = rings.map(GeoRing.init)
        for (index, loop) in loops.enumerated() {
            if let (a, b) = loop.crossingEdges() {
                throw invalid("Ring \(index) is not valid: 'Edges \(a) and \(b) cross. Edge locations in degrees: "
                              + "\(loop.edgeText(a)) and \(loop.edgeText(b))''")
            }
        }
        for (index, loop) in loops.enumerated() {
            for (edge, segment) in loop.edges.enumerated() {
                for earlier in 0..<index {
                    if let other = loops[earlier].edges.firstIndex(where: { $0.isSameEdge(as: segment) }) {
                        throw invalid("Polygon isn't valid: 'Duplicate edge: ring \(index), edge \(edge) and ring \(earlier), edge \(other)''")
                    }
                }
            }
        }
        guard let outer = loops.first else { return }
        for (index, hole) in loops.enumerated().dropFirst() where !outer.strictlyContains(hole) {
            throw invalid("Secondary ring \(index) not contained by first exterior ring - secondary rings must be holes in the first ring")
        }
        for (index, hole) in loops.enumerated().dropFirst(2) {
            if loops[1..<index].contains(where: { $0.contains(hole.vertices[0]) }) {
                throw invalid("Polygon interior rings cannot be nested: \(index)")
            }
        }
    }

    private func invalid(_ problem: String) -> QueryError {
        QueryError("Invalid region in GEOWITHIN query for parameter '\(self)': '\(problem)", at: nil)
    }

    /// The region as Realm names it in messages: points as `[longitude, latitude, 0]`.
    package var description: String {
        func point(_ lat: Double, _ lon: Double) -> String { "[\(Self.number(lon)), \(Self.number(lat)), 0]" }
        switch self {
        case let .box(south, west, north, east): return "GeoBox(\(point(south, west)), \(point(north, east)))"
        case let .circle(lat, lon, radius): return "GeoCircle(\(point(lat, lon)), \(Self.number(radius)))"
        case .polygon(let rings):
            return "GeoPolygon(" + rings.map { "{" + $0.map { point($0.latitude, $0.longitude) }.joined(separator: ", ") + "}" }
                .joined(separator: ", ") + ")"
        }
    }

    /// A number in at most six significant digits (`40.0096`, `0`, `10`).
    static func number(_ value: Double) -> String { String(format: "%g", value) }
}

/// A point as latitude and longitude in degrees.
package struct GeoCoordinate: Equatable, Sendable {
    package let latitude: Double
    package let longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A point on the unit sphere.
struct SphereVector: Sendable {
    let x: Double, y: Double, z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(latitude: Double, longitude: Double) {
        let lat = latitude * .pi / 180, lon = longitude * .pi / 180
        self.init(x: cos(lat) * cos(lon), y: cos(lat) * sin(lon), z: sin(lat))
    }

    func dot(_ o: SphereVector) -> Double { x * o.x + y * o.y + z * o.z }
    func cross(_ o: SphereVector) -> SphereVector { SphereVector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x) }

    /// The angle between the two points seen from the centre: their distance in radians.
    func angle(to o: SphereVector) -> Double { atan2(sqrt(cross(o).dot(cross(o))), dot(o)) }
}

/// One closed ring of a polygon, its edges great-circle arcs.
struct GeoRing: Sendable {
    /// The ring's points, the closing repeat of the first left out.
    let vertices: [SphereVector]
    let coordinates: [GeoCoordinate]
    /// Edge `i` goes from vertex `i` to the next.
    let edges: [GeoEdge]

    init(_ points: [GeoCoordinate]) {
        let coordinates = Array(points.dropLast())
        let vertices = coordinates.map { SphereVector(latitude: $0.latitude, longitude: $0.longitude) }
        self.coordinates = coordinates
        self.vertices = vertices
        edges = vertices.indices.map { GeoEdge(from: vertices[$0], to: vertices[($0 + 1) % vertices.count]) }
    }

    /// Whether `point` is inside the ring (the smaller of the two regions its edges bound):
    /// the edges turn a full circle around a point inside and none around a point outside.
    func contains(_ point: SphereVector) -> Bool {
        var winding = 0.0
        for edge in edges {
            winding += atan2(point.dot(edge.from.cross(edge.to)), edge.from.dot(edge.to) - edge.from.dot(point) * edge.to.dot(point))
        }
        return abs(winding) > .pi
    }

    /// Whether every point of `other` is inside this ring, none on its edges.
    func strictlyContains(_ other: GeoRing) -> Bool {
        other.vertices.allSatisfy { v in contains(v) && !edges.contains { $0.passes(through: v) } }
            && !other.edges.contains { e in edges.contains { $0.crosses(e) } }
    }

    /// The first two edges that cross, if any (adjacent edges share a vertex and do not count).
    func crossingEdges() -> (Int, Int)? {
        for a in edges.indices {
            for b in edges.indices where b > a + 1 && !(a == 0 && b == edges.count - 1) {
                if edges[a].crosses(edges[b]) { return (a, b) }
            }
        }
        return nil
    }

    /// Edge `i` as `[latitude, longitude]-[latitude, longitude]` in degrees.
    func edgeText(_ i: Int) -> String {
        func text(_ c: GeoCoordinate) -> String { String(format: "[%.7f, %.7f]", c.latitude, c.longitude) }
        return text(coordinates[i]) + "-" + text(coordinates[(i + 1) % coordinates.count])
    }
}

/// A great-circle arc between two points.
struct GeoEdge: Sendable {
    let from: SphereVector, to: SphereVector

    /// The same two points, in either direction.
    func isSameEdge(as o: GeoEdge) -> Bool {
        (from.angle(to: o.from) < 1e-12 && to.angle(to: o.to) < 1e-12) || (from.angle(to: o.to) < 1e-12 && to.angle(to: o.from) < 1e-12)
    }

    /// Whether `point` lies on the arc.
    func passes(through point: SphereVector) -> Bool {
        abs(from.angle(to: point) + point.angle(to: to) - from.angle(to: to)) < 1e-12
    }

    /// Whether the two arcs cross at a point inside both (not at an end): the ends of each lie
    /// on both sides of the other's great circle, turning the same way around the crossing.
    func crosses(_ o: GeoEdge) -> Bool {
        let ab = from.cross(to)
        let acb = -ab.dot(o.from), bda = ab.dot(o.to)
        guard acb * bda > 0 else { return false }
        let cd = o.from.cross(o.to)
        let cbd = -cd.dot(to), dac = cd.dot(from)
        return acb * cbd > 0 && acb * dac > 0
    }
}
