// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps a decode, or an encode, off the end of its thread's stack.
///
/// The one nesting budget of 512 levels bounds the stack a decode needs, but not below what a
/// small thread has: Apple platforms give secondary threads 512 KB, musl 128 KB, and a model
/// level of `Codable` takes one to two kilobytes (several times that in a debug build, or
/// through hooks and tagged enums). Once a decode is past ``unguardedDepth`` levels, or has
/// used ``unguardedBytes`` of stack since it began, each model decoded compares the stack
/// pointer with the thread's lowest address and refuses to go on within ``reserve(ofStack:)``
/// of it: a clear error instead of a crash, on any thread.
struct StackGuard {
    /// Nesting up to which no check runs unless the stack used says otherwise.
    static let unguardedDepth = 16
    /// Stack a decode may use from where it began before the checks start, whatever its depth:
    /// well within the smallest threads (musl's 128 KB), so that the first check comes in time
    /// even where the caller has used half the stack, and more than a small document takes in a
    /// release build, which then never pays for the first check's look at the thread.
    static let unguardedBytes: UInt = 16 * 1024
    /// Stack left for the frames of a model's own code, the error and what catches it: at most
    /// ``maximumReserve``, or a quarter of a smaller thread's stack (at least 16 KB), so that a
    /// small thread still decodes what fits in it.
    func reserve(ofStack size: UInt) -> UInt {
        min(maximumReserve, max(16 * 1024, size / 4))
    }

    /// The most stack kept in reserve: 128 KB for a decode, whose levels run hooks, type choices
    /// and coercions between two checks. An encode keeps 64 KB: between two checks it runs one
    /// level of `encode(to:)`, and a model level takes about 1.4 KB of a release build's stack,
    /// so a larger reserve would refuse values `JSONEncoder` encodes on a 512 KB thread (it
    /// overflows from about 330 levels there).
    let maximumReserve: UInt
    /// An address in the frame of the code that began the decode, kept as a number (an encode,
    /// which looks only by depth, does not read it: see `TreeEncoder.unguardedDepth`).
    private let start = StackGuard.currentAddress()

    /// A guard for a decode or encode that begins in the caller's frame.
    init(maximumReserve: UInt = 128 * 1024) {
        self.maximumReserve = maximumReserve
    }

    /// Whether the decode must look at the stack before a model at `depth` levels: past
    /// ``unguardedDepth``, or once it has used ``unguardedBytes`` since it began. (A decoder kept
    /// past its decode and read on another thread, whose stack lies elsewhere, always looks.)
    @inline(__always)
    func needsCheck(depth: Int) -> Bool {
        if depth > StackGuard.unguardedDepth { return true }
        var marker: UInt8 = 0
        // Only the address of this frame's local is kept, as a number, as in `currentAddress()`.
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return start &- address > StackGuard.unguardedBytes
    }

    /// Whether the stack pointer is within the reserve of the current thread's lowest address.
    /// An address in the caller's frame that lies outside the thread's stack (AddressSanitizer
    /// moves locals to a heap of its own) says nothing, and never trips the guard.
    ///
    /// The bounds are the current thread's, whichever thread runs the call: a decoder kept past
    /// its decode, or an encoder reused from call to call, may be read on a thread that starts
    /// where an ended thread's stack was, and must not take that stack's bounds for its own.
    func isExhausted() -> Bool {
        let address = StackGuard.currentAddress()
        guard let stack = StackGuard.stackOfCurrentThread() else { return false }
        // Within the reserve above the lowest address: below it is not this thread's stack.
        return address >= stack.lowest && address &- stack.lowest < reserve(ofStack: stack.size)
    }

    /// The current thread's stack, looked up once per thread and kept in the thread's own storage,
    /// which the thread takes with it when it ends: a thread that starts later where its stack
    /// was (the system reuses the addresses, and thread identifiers too) looks its own up.
    /// `nil` where the platform does not say.
    static func stackOfCurrentThread() -> (lowest: UInt, size: UInt)? {
        if let stored = pthread_getspecific(stackKey) {
            // The thread's own block, written below by this thread and freed only when it ends.
            let bounds = stored.assumingMemoryBound(to: UInt.self)
            return bounds[1] == 0 ? nil : (bounds[0], bounds[1])
        }
        // The refusal's error is built near the end of the stack: what it needs of the runtime
        // for the first time is made now, while there is room.
        _ = StackGuard.firstUsesMade
        let stack = Thread.isMainThread ? StackGuard.mainThreadStack : StackGuard.currentStack()
        // Two words, owned by the thread's slot of `stackKey` from here on: its destructor frees
        // them when the thread ends. Without them the stack is looked up again next time.
        if let memory = malloc(2 * MemoryLayout<UInt>.stride) {
            let bounds = memory.bindMemory(to: UInt.self, capacity: 2)
            bounds[0] = stack?.lowest ?? 0
            bounds[1] = stack?.size ?? 0
            if pthread_setspecific(stackKey, memory) != 0 { free(memory) }
        }
        return stack
    }

    /// The key of each thread's slot for its stack's bounds (``stackOfCurrentThread()``), made
    /// once per process; a thread's block is freed when the thread ends.
    private static let stackKey: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { free($0) }
        precondition(made == 0, "No thread-local storage left for the stack guard")
        return key
    }()

    /// The main thread's stack, looked up once: on Linux that reads the process's memory map.
    private static let mainThreadStack = currentStack()

    /// Whether what the runtime makes on first use, and a refusal or an encode needs near the end
    /// of the stack, has been made once in this process: the storage of the first
    /// `[any CodingKey]` with an element (a refusal's coding path), the refusals' errors, and the boxes through which
    /// a `Mirror`'s children are first iterated (the encoder reflects the first value of each
    /// type after its members, at the deepest level it reaches), and the objects
    /// `encodeToJSONObject` makes. Each first use goes through tens of kilobytes of the runtime's
    /// frames.
    static let firstUsesMade = makeFirstUses()

    /// Makes the first uses of ``firstUsesMade``. Not optimized, so that the compiler keeps
    /// uses whose results it could otherwise work out itself.
    @_optimize(none)
    private static func makeFirstUses() -> Bool {
        final class Reflected { let member = 0 }
        struct ReflectedStruct { let member = 0 }
        let path: [any CodingKey] = [AnyCodingKey("")]
        let classMembers = Mirror(reflecting: Reflected()).children.contains { $0.label == nil }
        let structMembers = Mirror(reflecting: ReflectedStruct()).children.contains { $0.label == nil }
        // What `encodeToJSONObject` makes at the deepest level of its value.
        let objects: [Any] = [NSNumber(value: true), NSNull(), ["": NSNumber(value: 1)] as [String: Any]]
        // The bounds of a thread, as each check reads them (an optional of a tuple, whose metadata
        // a build without optimization makes on first use).
        let bounds: (lowest: UInt, size: UInt)? = currentStack()
        // The refusals themselves, an encode's and a decode's, as the guard's callers build them,
        // with their coding paths put together and put in order.
        let keys: [any CodingKey] = path + path
        let ordered: [any CodingKey] = keys.reversed()
        let refusals: [any Error] = [
            EncodingError.invalidValue(0, .init(codingPath: path + [], debugDescription: "")),
            DecodingError.dataCorrupted(.init(codingPath: path + [], debugDescription: "")),
        ]
        return !ordered.isEmpty || bounds == nil || classMembers || structMembers || objects.isEmpty || refusals.isEmpty
    }

    /// An address in the caller's frame.
    @inline(never)
    static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        // Only the address is kept, as a number: nothing reads through it once the frame is gone.
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    #if canImport(Glibc) || canImport(Musl)
    /// `pthread_getattr_np`, which the C library has but its Swift module does not declare (it
    /// needs `_GNU_SOURCE`): looked up once by name.
    private static let getThreadAttributes:
        (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
            guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "pthread_getattr_np") else {
                return nil
            }
            // The C library stays loaded for the life of the process (`dlopen(nil)` names the
            // program itself, which is never unloaded), so the function pointer never dangles.
            return unsafeBitCast(
                symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
        }()
    #endif

    /// The lowest address and the size of the current thread's stack, where the platform says.
    static func currentStack() -> (lowest: UInt, size: UInt)? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return top > size ? (top - size, size) : nil
        #elseif canImport(Glibc) || canImport(Musl)
        guard let getAttributes = StackGuard.getThreadAttributes else { return nil }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        // The stack's lowest address, kept as a number and never read through.
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return (UInt(bitPattern: address), UInt(size))
        #else
        return nil
        #endif
    }
}
