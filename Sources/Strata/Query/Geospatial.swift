import Foundation
import StrataQuery

// Geospatial shapes for `GEOWITHIN` queries (RealmSwift's `GeoPoint`, `GeoBox`, `GeoCircle`,
// `GeoPolygon` and `Distance`): `realm.objects(Place.self).where { $0.location.geoWithin(box) }`
// or `filter("location IN %@", box)`, where `location` links to an embedded object holding
// `coordinates: List<Double>` (longitude, latitude) and `type: String` ("Point").

/// A shape a point can lie in.
public protocol Geospatial {}

/// RealmSwift's name for `Geospatial`.
public typealias RLMGeospatial = Geospatial

/// What a query tests points against.
protocol GeoRegionConvertible {
    var region: GeoRegion { get }
}

/// A point on the Earth: latitude -90...90, longitude -180...180 (degrees), altitude 0 or more.
public struct GeoPoint: Equatable, Sendable {
    public let latitude: Double
    public let longitude: Double
    public let altitude: Double

    /// The point, or nil for a latitude, longitude or altitude out of range (or NaN).
    public init?(latitude: Double, longitude: Double, altitude: Double = 0) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), altitude >= 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// The point at (latitude, longitude), or nil when out of range.
    init?(_ coordinates: (Double, Double)) {
        self.init(latitude: coordinates.0, longitude: coordinates.1)
    }

    var coordinate: GeoCoordinate { GeoCoordinate(latitude: latitude, longitude: longitude) }
}

/// The points between two corners: latitudes from the bottom left's to the top right's,
/// longitudes from the bottom left's eastwards to the top right's.
public struct GeoBox: Geospatial, GeoRegionConvertible, Equatable, Sendable {
    public let bottomLeft: GeoPoint
    public let topRight: GeoPoint

    /// The box between two corners.
    public init?(bottomLeft: GeoPoint, topRight: GeoPoint) {
        self.bottomLeft = bottomLeft
        self.topRight = topRight
    }

    /// The box between two corners given as (latitude, longitude); nil when one is out of range.
    public init?(bottomLeft: (Double, Double), topRight: (Double, Double)) {
        guard let low = GeoPoint(bottomLeft), let high = GeoPoint(topRight) else { return nil }
        self.init(bottomLeft: low, topRight: high)
    }

    var region: GeoRegion {
        .box(south: bottomLeft.latitude, west: bottomLeft.longitude, north: topRight.latitude, east: topRight.longitude)
    }
}

/// A polygon with great-circle edges and holes. Each ring is closed (its last point is its
/// first) and has at least three corners.
public struct GeoPolygon: Geospatial, GeoRegionConvertible, Equatable, Sendable {
    public let outerRing: [GeoPoint]
    public let holes: [[GeoPoint]]

    /// The polygon, or nil when a ring is not closed or has fewer than four points.
    public init?(outerRing: [GeoPoint], holes: [[GeoPoint]] = []) {
        guard ([outerRing] + holes).allSatisfy({ $0.count >= 4 && $0.first == $0.last }) else { return nil }
        self.outerRing = outerRing
        self.holes = holes
    }

    /// The polygon with rings of (latitude, longitude) pairs.
    public init?(outerRing: [(Double, Double)], holes: [[(Double, Double)]] = []) {
        let points = ([outerRing] + holes).map { $0.map(GeoPoint.init) }
        guard points.allSatisfy({ $0.allSatisfy { $0 != nil } }) else { return nil }
        let rings = points.map { $0.map { $0! } }
        self.init(outerRing: rings[0], holes: Array(rings.dropFirst()))
    }

    /// The same, with the holes given one after another.
    public init?(outerRing: [(Double, Double)], holes: [(Double, Double)]...) {
        self.init(outerRing: outerRing, holes: holes)
    }

    var region: GeoRegion { .polygon(([outerRing] + holes).map { $0.map(\.coordinate) }) }
}

/// The points within a distance of a centre, along the surface.
public struct GeoCircle: Geospatial, GeoRegionConvertible, Equatable, Sendable {
    public let center: GeoPoint
    public let radiusInRadians: Double

    /// The circle, or nil for a negative or NaN radius.
    public init?(center: GeoPoint, radiusInRadians: Double) {
        guard radiusInRadians >= 0 else { return nil }
        self.center = center
        self.radiusInRadians = radiusInRadians
    }

    /// The circle of radius `radius`.
    public init?(center: GeoPoint, radius: Distance) {
        self.init(center: center, radiusInRadians: radius.radians)
    }

    /// The circle around (latitude, longitude).
    public init?(center: (Double, Double), radiusInRadians: Double) {
        guard let point = GeoPoint(center) else { return nil }
        self.init(center: point, radiusInRadians: radiusInRadians)
    }

    /// The circle of radius `radius` around (latitude, longitude).
    public init?(center: (Double, Double), radius: Distance) {
        self.init(center: center, radiusInRadians: radius.radians)
    }

    var region: GeoRegion { .circle(latitude: center.latitude, longitude: center.longitude, radius: radiusInRadians) }
}

/// A distance along the Earth's surface, kept as the angle it spans (the Earth taken as a
/// sphere of radius 6,378.1 km).
public struct Distance: Equatable, Sendable {
    /// The angle, in radians.
    public let radians: Double

    private static let earthRadiusKilometers = 6378.1
    private static let kilometersPerMile = 1.609344

    private init?(validRadians radians: Double) {
        guard radians >= 0 else { return nil }
        self.radians = radians
    }

    /// An angle in radians; nil when negative or NaN.
    public static func radians(_ radians: Double) -> Distance? { Distance(validRadians: radians) }
    /// An angle in degrees; nil when negative or NaN.
    public static func degrees(_ degrees: Double) -> Distance? { Distance(validRadians: degrees * .pi / 180) }
    /// A length in kilometres; nil when negative or NaN.
    public static func kilometers(_ kilometers: Double) -> Distance? { Distance(validRadians: kilometers / earthRadiusKilometers) }
    /// A length in miles; nil when negative or NaN.
    public static func miles(_ miles: Double) -> Distance? { kilometers(miles * kilometersPerMile) }

    /// The distance in kilometres.
    public func asKilometers() -> Double { radians * Self.earthRadiusKilometers }
    /// The distance in miles.
    public func asMiles() -> Double { asKilometers() / Self.kilometersPerMile }
    /// The angle in degrees.
    public func asDegrees() -> Double { radians * 180 / .pi }
}

extension Query where T: OptionalProtocol, T.Wrapped: EmbeddedObject {
    /// Whether the point the embedded object holds lies in `shape`:
    /// `$0.location.geoWithin(GeoCircle(center: (55.67, 12.56), radius: .kilometers(10)!)!)`.
    public func geoWithin<U: Geospatial>(_ shape: U) -> Query<Bool> {
        guard let region = (shape as? GeoRegionConvertible)?.region else {
            fatalError("Invalid query: \(U.self) is not one of the shapes GeoBox, GeoCircle and GeoPolygon")
        }
        let (steps, link) = propertyPath
        return Query<Bool>(.predicate(context.geoWithin(path: steps, link, region)), context,
                           format: .comparison("IN", format, .constant(shape), options: []))
    }
}
