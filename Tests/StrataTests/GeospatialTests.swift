import Foundation
import XCTest
import Strata

/// An embedded point, stored as RealmSwift stores one: longitude first.
final class Spot: EmbeddedObject {
    @Persisted var coordinates: List<Double>
    @Persisted var type = "Point"

    convenience init(_ latitude: Double, _ longitude: Double) {
        self.init()
        coordinates.append(objectsIn: [longitude, latitude])
    }
}

final class Landmark: Object {
    @Persisted var name = ""
    @Persisted var spot: Spot?
}

/// Embedded objects that do not hold a point as a geospatial query needs one.
final class NoType: EmbeddedObject {
    @Persisted var coordinates: List<Double>
}

final class TopLevelSpot: Object {
    @Persisted var coordinates: List<Double>
    @Persisted var type = "Point"
}

final class OddPlace: Object {
    @Persisted var untyped: NoType?
    @Persisted var topLevel: TopLevelSpot?
}

/// Geospatial queries: the shapes and their validation, boxes, circles and polygons (great-circle
/// edges, holes) through `where {}` and the string form, points of another type, and the
/// errors for data that holds no point and for invalid polygons.
final class GeospatialTests: StrataTestCase {
    private func seeded() throws -> Realm {
        let realm = try openRealm(types: [Landmark.self, Spot.self, NoType.self, TopLevelSpot.self, OddPlace.self])
        try realm.write {
            realm.add(Landmark(value: ["name": "nyc", "spot": Spot(40.7128, -74.0060)]))
            realm.add(Landmark(value: ["name": "copenhagen", "spot": Spot(55.6761, 12.5683)]))
            realm.add(Landmark(value: ["name": "roskilde", "spot": Spot(55.6280, 12.0826)]))
            realm.add(Landmark(value: ["name": "antarctic", "spot": Spot(-76, -76)]))
            realm.add(Landmark(value: ["name": "nowhere"]))
        }
        return realm
    }

    /// The names matching `shape`, checked to be the same through both query forms.
    private func names<S: Geospatial>(in realm: Realm, _ shape: S, file: StaticString = #filePath, line: UInt = #line) throws -> Set<String> {
        let typed = Set(realm.objects(Landmark.self).where { $0.spot.geoWithin(shape) }.map(\.name))
        let text = Set(try realm.objects(Landmark.self).throwingFilter("spot GEOWITHIN %@", shape).map(\.name))
        let written = Set(try realm.objects(Landmark.self).throwingFilter("spot IN %@", shape).map(\.name))
        XCTAssertEqual(typed, text, file: file, line: line)
        XCTAssertEqual(typed, written, file: file, line: line)
        return typed
    }

    func testShapesCheckTheirValues() {
        XCTAssertNotNil(GeoPoint(latitude: 90, longitude: -180))
        XCTAssertNil(GeoPoint(latitude: 90.0001, longitude: 0))
        XCTAssertNil(GeoPoint(latitude: 0, longitude: -180.0001))
        XCTAssertNil(GeoPoint(latitude: .nan, longitude: 0))
        XCTAssertNil(GeoPoint(latitude: 0, longitude: 0, altitude: -1))
        XCTAssertNil(GeoBox(bottomLeft: (-91, 0), topRight: (0, 0)))
        XCTAssertNil(GeoPolygon(outerRing: [(0, 0), (1, 1), (0, 0)]), "a ring needs three corners")
        XCTAssertNil(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 0), (3, 3)]), "a ring must be closed")
        XCTAssertNil(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 0), (0, 0)], holes: [[(0, 0)]]))
        XCTAssertNotNil(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 0), (0, 0)], holes: [(0, 0), (1, 1), (2, 0), (0, 0)]))
        XCTAssertNil(GeoCircle(center: (0, 0), radiusInRadians: -1))
        XCTAssertNil(GeoCircle(center: (0, 0), radiusInRadians: .nan))
        XCTAssertNil(Distance.kilometers(-1))
        XCTAssertNil(Distance.degrees(.nan))
        XCTAssertEqual(Distance.kilometers(40075)!.radians, 2 * .pi, accuracy: 0.001, "the Earth's circumference")
        XCTAssertEqual(Distance.miles(24901)!.asMiles(), 24901, accuracy: 0.001)
        XCTAssertEqual(Distance.degrees(90)!.radians, .pi / 2)
        XCTAssertEqual(Distance.radians(1)!.asDegrees(), 180 / .pi)
        XCTAssertEqual(GeoCircle(center: (1, 2), radius: .degrees(1)!), GeoCircle(center: (1, 2), radiusInRadians: .pi / 180))
        XCTAssertNotEqual(GeoBox(bottomLeft: (0, 0), topRight: (1, 1)), GeoBox(bottomLeft: (1, 1), topRight: (0, 0)))
    }

    func testBoxes() throws {
        let realm = try seeded()
        XCTAssertEqual(try names(in: realm, GeoBox(bottomLeft: (55.6281, 12.0826), topRight: (55.6762, 12.5684))!), ["copenhagen"])
        XCTAssertEqual(try names(in: realm, GeoBox(bottomLeft: (55.6279, 12.0825), topRight: (55.6762, 12.5684))!), ["copenhagen", "roskilde"])
        XCTAssertEqual(try names(in: realm, GeoBox(bottomLeft: (0, -75), topRight: (60, 15))!), ["nyc", "copenhagen", "roskilde"])
        XCTAssertEqual(try names(in: realm, GeoBox(bottomLeft: (-80, 170), topRight: (-70, -70))!), ["antarctic"],
                       "a box from 170° eastwards to -70° crosses the antimeridian")
    }

    func testCircles() throws {
        let realm = try seeded()
        XCTAssertEqual(try names(in: realm, GeoCircle(center: (55.67, 12.56), radiusInRadians: 0.001)!), ["copenhagen"])
        XCTAssertEqual(try names(in: realm, GeoCircle(center: (55.67, 12.56), radius: .kilometers(100)!)!), ["copenhagen", "roskilde"])
        XCTAssertEqual(try names(in: realm, GeoCircle(center: (45, -20), radius: .kilometers(5000)!)!), ["nyc", "copenhagen", "roskilde"])
        XCTAssertEqual(try names(in: realm, GeoCircle(center: (0, 0), radiusInRadians: 0)!), [])
    }

    func testPolygonsFollowGreatCircles() throws {
        let realm = try seeded()
        // Its first edge runs from just south-west of New York towards the north-east; along a
        // great circle it passes north of the city, along a line of constant bearing south of it.
        let wide = GeoPolygon(outerRing: [(40.0096192, -75.5175781), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175781)])!
        XCTAssertEqual(try names(in: realm, wide), ["nyc", "copenhagen", "roskilde"])
        XCTAssertEqual(try names(in: realm, GeoPolygon(outerRing: [(55, 12), (55.67, 12.5), (55.67, 11.5), (55, 12)])!), ["roskilde"])
        let holed = GeoPolygon(outerRing: [(50, -80), (61, 21), (21, 21), (-80, -80), (50, -80)],
                               holes: [[(40.0096192, -75.5175781), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175781)]])!
        XCTAssertEqual(try names(in: realm, holed), ["antarctic"], "a point in a hole is outside")
    }

    func testOnlyPointsMatch() throws {
        let realm = try seeded()
        let box = GeoBox(bottomLeft: (55.6281, 12.0826), topRight: (55.6762, 12.5684))!
        try realm.write { realm.objects(Landmark.self).forEach { $0.spot?.type = "Polygon" } }
        XCTAssertEqual(try names(in: realm, box), [], "an object whose type is not \"Point\" holds no point")
    }

    func testDataThatHoldsNoPointIsAnError() throws {
        let realm = try seeded()
        let circle = GeoCircle(center: (0, 0), radiusInRadians: 10)!
        XCTAssertThrowsError(try realm.objects(OddPlace.self).throwingFilter("untyped GEOWITHIN %@", circle)) {
            XCTAssertTrue("\($0)".contains("Query 'untyped GEOWITHIN GeoCircle([0, 0, 0], 10)' links to data in the wrong format for a geoWithin query"), "\($0)")
        }
        XCTAssertThrowsError(try realm.objects(OddPlace.self).throwingFilter("topLevel IN %@", circle)) {
            XCTAssertTrue("\($0)".contains("A GEOWITHIN query can only operate on a link to an embedded class but 'TopLevelSpot' is at the top level"), "\($0)")
        }
        XCTAssertThrowsError(try realm.objects(Landmark.self).throwingFilter("name GEOWITHIN %@", circle)) {
            XCTAssertTrue("\($0)".contains("'name' is not a link"), "\($0)")
        }
    }

    func testInvalidPolygonsAreErrors() throws {
        let realm = try seeded()
        let cases: [(GeoPolygon, String)] = [
            (GeoPolygon(outerRing: [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)], holes: [[(2, 2), (2, 3), (3, 3), (3, 2), (2, 2)]])!,
             "Secondary ring 1 not contained by first exterior ring"),
            (GeoPolygon(outerRing: [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)], holes: [[(0, 0.1), (0.5, 0.1), (0.5, 0.5), (0, 0.5), (0, 0.1)]])!,
             "Secondary ring 1 not contained by first exterior ring"),
            (GeoPolygon(outerRing: [(50, -50), (55, 55), (-50, 50), (70, -25), (50, -50)])!,
             "Ring 0 is not valid: 'Edges 0 and 2 cross. Edge locations in degrees: [50.0000000, -50.0000000]-[55.0000000, 55.0000000] and [-50.0000000, 50.0000000]-[70.0000000, -25.0000000]"),
            (GeoPolygon(outerRing: [(50, -80), (60, 20), (20, 20), (-80, -80), (50, -80)],
                        holes: [[(40.0096192, -75.5175781), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175781)]])!,
             "Duplicate edge: ring 1, edge 1 and ring 0, edge 1"),
            (GeoPolygon(outerRing: [(50, -80), (62, 22), (22, 22), (-80, -80), (50, -80)],
                        holes: [[(45, -77), (61, 21), (21, 21), (-77, -77), (45, -77)],
                                [(40.0096192, -75.5175780), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175780)]])!,
             "Polygon interior rings cannot be nested: 2"),
        ]
        for (polygon, problem) in cases {
            XCTAssertThrowsError(try realm.objects(Landmark.self).throwingFilter("spot GEOWITHIN %@", polygon), problem) {
                XCTAssertTrue("\($0)".contains("Invalid region in GEOWITHIN query for parameter 'GeoPolygon({"), "\($0)")
                XCTAssertTrue("\($0)".contains(problem), "expected '\(problem)' in: \($0)")
            }
        }
    }
}
