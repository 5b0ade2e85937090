import Foundation
@testable import Strata

/// Models of the embedded-object tests, shaped as RealmSwift's own (`EmbeddedTreeObject`).
final class Coordinates: EmbeddedObject {
    @Persisted var latitude = 0.0
    @Persisted var longitude = 0.0
}

final class Address: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
    @Persisted var location: Coordinates?
    @Persisted var phones: List<Phone>
}

final class Phone: EmbeddedObject {
    @Persisted var number = ""
}

final class Tenant: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var address: Address?
    @Persisted var addresses: List<Address>
}

/// An embedded class that declares a primary key: a schema error.
final class KeyedAddress: EmbeddedObject {
    @Persisted(primaryKey: true) var id = 0
}

/// A set of embedded objects: a schema error (RealmSwift keeps them in lists and maps only).
final class PhoneBook: Object {
    @Persisted var phones: MutableSet<Phone>
}

/// The classes of the embedded-object tests.
let embeddedTypes: [ObjectBase.Type] = [Tenant.self, Address.self, Coordinates.self, Phone.self]
