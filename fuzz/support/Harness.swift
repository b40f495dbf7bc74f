// The libFuzzer entry point shared by every target: it copies the input into an array
// and calls the target's `fuzzOne(_:)` (defined in fuzz/targets/NAME.swift). A target
// only has to not crash; errors thrown by parsers are the expected outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    fuzzOne(bytes)
    return 0
}
