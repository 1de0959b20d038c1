// interleaved RUNS COMMAND [ARGS...] [-- COMMAND [ARGS...]]...: runs the commands in turn, RUNS
// rounds (fork, exec, wait; standard output to /dev/null), and prints each one's median wall
// time with its quartiles. For pairs measured "in one run": a burst of load from the machine's
// other tenants lands on every command alike, where hyperfine would give it to whichever
// command was running. Build: cc -O2 -o interleaved bench/lib/interleaved.c
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s RUNS COMMAND [ARGS...] [-- COMMAND [ARGS...]]...\n", argv[0]);
        return 2;
    }
    int runs = atoi(argv[1]), count = 0;
    char **commands[64];
    commands[count++] = &argv[2];
    for (int i = 2; i < argc && count < 64; i++)
        if (strcmp(argv[i], "--") == 0) {
            argv[i] = NULL;
            commands[count++] = &argv[i + 1];
        }
    double *ms = calloc((size_t)count * (size_t)runs, sizeof(double));
    int devnull = open("/dev/null", O_WRONLY);
    for (int run = 0; run < runs; run++)
        for (int c = 0; c < count; c++) {
            struct timespec start, end;
            clock_gettime(CLOCK_MONOTONIC, &start);
            pid_t child = fork();
            if (child == 0) {
                dup2(devnull, 1);
                execv(commands[c][0], commands[c]);
                _exit(127);
            }
            int status;
            waitpid(child, &status, 0);
            clock_gettime(CLOCK_MONOTONIC, &end);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "%s failed (status %d)\n", commands[c][0], status);
                return 1;
            }
            ms[c * runs + run] = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
        }
    for (int c = 0; c < count; c++) {
        double *times = ms + c * runs;
        qsort(times, (size_t)runs, sizeof(double), ascending);
        printf("%7.2f ms  (quartiles %.2f-%.2f)  %s", times[runs / 2], times[runs / 4], times[3 * runs / 4], commands[c][0]);
        for (int k = 1; commands[c][k]; k++) printf(" %s", commands[c][k]);
        printf("\n");
    }
    return 0;
}
