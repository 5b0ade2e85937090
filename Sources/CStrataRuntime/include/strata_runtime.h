// What Swift cannot ask its own runtime on Linux: the classes a program declares. The Swift
// runtime lists each loaded image's type metadata records; this walks them. No logic beyond.
#ifndef STRATA_RUNTIME_H
#define STRATA_RUNTIME_H

/// Calls `found` with the class metadata (the class object) of every non-generic class
/// declared by the Swift images loaded in the process (the executable and its libraries),
/// passing `context` through. Classes without a superclass are left out. Returns 0, or -1
/// when memory ran out (then no class was reported).
int strata_enumerate_classes(void (*found)(const void *metadata, void *context), void *context);

#endif
