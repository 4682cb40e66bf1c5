#pragma once

namespace knightstour::cli {

// Each subcommand gets argv with argv[0] = its own name and returns the exit code.
int count_command(int argc, char** argv);
int prefixes_command(int argc, char** argv);
int enumerate_command(int argc, char** argv);
int verify_command(int argc, char** argv);
int merge_command(int argc, char** argv);
int find_command(int argc, char** argv);
int estimate_command(int argc, char** argv);
int show_command(int argc, char** argv);
int status_command(int argc, char** argv);

}  // namespace knightstour::cli
