enum DoctorCommand {
    static let all: [CommandSpec] = []
}
