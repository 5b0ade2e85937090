import Foundation
import Strata

/// W16 and W17: a pet with a to-one link to its owner.
final class Pet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var owner: Person?
}

/// W16 and W17 through the public API: following `pet.owner` and counting `person.pets`.
extension StrataEngine {
    func makePets(below n: Int) throws {
        try realm.write {
            for (p, owner) in Workload.petOwners(below: n).enumerated() {
                let pet = Pet()
                pet.id = p
                pet.owner = realm.object(ofType: Person.self, forPrimaryKey: owner)!
                realm.add(pet)
            }
        }
    }

    func followOwners() throws -> QueryResult {
        var result = QueryResult()
        for _ in 0..<Workload.linkPasses {
            for pet in realm.objects(Pet.self) {
                result.sum += pet.owner!.name.utf8.count
                result.count += 1
            }
        }
        return result
    }

    func countPets(_ ids: [Int]) throws -> QueryResult {
        var result = QueryResult()
        for id in ids {
            result.sum += realm.object(ofType: Person.self, forPrimaryKey: id)!.pets.count
            result.count += 1
        }
        return result
    }

    func deletePets() throws {
        try realm.write { realm.delete(realm.objects(Pet.self)) }
    }
}
