// One reply body from an upstream agent (what follows the length prefix), as hostbook's
// agents read it when they list and sign through another agent: UpstreamAgentReply's
// identities answer and sign response, through FuzzEntry.upstreamReply (Sources/Agent/Fuzzing).
@testable import Agent

func fuzzOne(_ bytes: [UInt8]) {
    FuzzEntry.upstreamReply(bytes)
}
