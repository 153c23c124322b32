// SPDX-License-Identifier: GPL-2.0
/*
 * test_claim.c - one process drives an island (runtime/util/claim.c):
 * a second process that starts its own in-process controller and worker
 * (pw_connect() with no address), or a pathwaysd worker, over the same
 * devices is refused with -EBUSY and a message
 * naming the holder and pathwaysd; the island is free again once the
 * holder disconnects or dies. Runs in the testbed with pwtpu.ko loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pw_common.h"
#include "kselftest_harness.h"

/* Child exit codes. */
#define CH_REFUSED	10	/* -EBUSY, message as wanted */
#define CH_CONNECTED	11
#define CH_BAD_MESSAGE	12
#define CH_OTHER_ERROR	13

/*
 * In a fresh child: wait for a byte on @go[0], try to connect, exit with
 * what happened. The message must name @holder's pid and pathwaysd.
 */
static pid_t try_in_child(const int go[2], pid_t holder)
{
	pid_t pid = fork();
	struct pw_client *c;
	char want[32], byte;
	const char *msg;
	int ret;

	if (pid)
		return pid;
	/* EOF, not a hang, when the parent fails before it says go. */
	close(go[1]);
	if (read(go[0], &byte, 1) != 1)
		_exit(CH_OTHER_ERROR);
	ret = pw_connect(NULL, &c);
	if (!ret) {
		pw_disconnect(c);
		_exit(CH_CONNECTED);
	}
	msg = pw_last_error();
	fprintf(stderr, "# child: pw_connect: %d: %s\n", ret, msg);
	if (ret != -EBUSY)
		_exit(CH_OTHER_ERROR);
	snprintf(want, sizeof(want), "process %ld ", (long)holder);
	if (!strstr(msg, want) || !strstr(msg, "pathwaysd") ||
	    !strstr(msg, "in use"))
		_exit(CH_BAD_MESSAGE);
	_exit(CH_REFUSED);
}

static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(second_process_is_refused_while_the_first_is_connected)
{
	struct pw_client *c;
	int go[2];
	pid_t pid;

	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pipe(go));
	/* Fork before connecting: the runtime's threads do not fork. */
	pid = try_in_child(go, getpid());
	ASSERT_LE(0, pid);
	c = pwt_connect("holder", 0);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(1, write(go[1], "g", 1));
	EXPECT_EQ(CH_REFUSED, child_status(pid));
	pw_disconnect(c);
	close(go[0]);
	close(go[1]);
}

TEST(island_is_free_again_after_disconnect)
{
	struct pw_client *c;
	int go[2];
	pid_t pid;

	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pipe(go));
	pid = try_in_child(go, getpid());
	ASSERT_LE(0, pid);
	c = pwt_connect("holder", 0);
	ASSERT_NE(NULL, c);
	pw_disconnect(c);
	ASSERT_EQ(1, write(go[1], "g", 1));
	EXPECT_EQ(CH_CONNECTED, child_status(pid));
	close(go[0]);
	close(go[1]);
}

/* Clients of one process share the one claim; it ends with the last. */
TEST(clients_of_one_process_share_the_island)
{
	struct pw_client *a, *b;
	int go[2];
	pid_t pid;

	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pipe(go));
	pid = try_in_child(go, getpid());
	ASSERT_LE(0, pid);
	a = pwt_connect("a", 0);
	b = pwt_connect("b", 0);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	pw_disconnect(a);
	/* b still holds it. */
	ASSERT_EQ(1, write(go[1], "g", 1));
	EXPECT_EQ(CH_REFUSED, child_status(pid));
	pw_disconnect(b);
	close(go[0]);
	close(go[1]);
}

TEST(island_is_free_again_when_the_holder_dies)
{
	struct pw_client *c;
	int ready[2], status;
	pid_t pid;
	char byte;

	PWT_NEED_DEVICES(1);
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(ready[0]);
		if (!pwt_connect("doomed", 0))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	/* Only the child holds the write end: EOF if it fails. */
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	EXPECT_EQ(-EBUSY, pw_connect(NULL, &c));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	c = pwt_connect("after", 0);
	EXPECT_NE(NULL, c);
	pw_disconnect(c);
	close(ready[0]);
}

/*
 * pathwaysd --role worker over an island held by this process: it exits
 * 1 at once and says who holds the island. @out captures its stderr.
 */
TEST(pathwaysd_worker_is_refused_by_an_embedded_holder)
{
	char exe[PATH_MAX], line[512] = "", want[32];
	struct pw_client *c;
	int errp[2];
	pid_t pid;
	ssize_t n;

	PWT_NEED_DEVICES(1);
	pwt_pathwaysd_path(exe, sizeof(exe));
	ASSERT_EQ(0, access(exe, X_OK));
	ASSERT_EQ(0, pipe(errp));
	c = pwt_connect("holder", 0);
	ASSERT_NE(NULL, c);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		dup2(errp[1], 2);
		execl(exe, exe, "--role", "worker", "--listen", "127.0.0.1:0",
		      "--controller", "127.0.0.1:9", "--host-id", "0",
		      "--data", "tcp", "--run-for", "5", (char *)NULL);
		_exit(127);
	}
	close(errp[1]);
	EXPECT_EQ(1, child_status(pid));
	n = read(errp[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	TH_LOG("pathwaysd said: %s", line);
	snprintf(want, sizeof(want), "process %ld ", (long)getpid());
	EXPECT_NE(NULL, strstr(line, want));
	EXPECT_NE(NULL, strstr(line, "in use"));
	pw_disconnect(c);
	close(errp[0]);
}

/*
 * The other way round: while a pathwaysd worker drives the island, an
 * embedded client is refused and told that pathwaysd holds it.
 */
TEST(embedded_client_is_refused_while_pathwaysd_drives_the_island)
{
	char exe[PATH_MAX], want[64], line[512] = "";
	struct pw_client *c = NULL;
	size_t got = 0;
	int outp[2], status;
	pid_t pid;
	ssize_t n;

	PWT_NEED_DEVICES(1);
	pwt_pathwaysd_path(exe, sizeof(exe));
	ASSERT_EQ(0, access(exe, X_OK));
	ASSERT_EQ(0, pipe(outp));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(outp[0]);
		dup2(outp[1], 1);
		execl(exe, exe, "--role", "worker", "--listen", "127.0.0.1:7790",
		      "--controller", "127.0.0.1:9", "--host-id", "0",
		      "--data", "tcp", "--run-for", "60", (char *)NULL);
		_exit(127);
	}
	close(outp[1]);
	/* It says "worker 0: island ..." once it holds the island. */
	while (!strstr(line, "island") && got < sizeof(line) - 1) {
		n = read(outp[0], line + got, sizeof(line) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		line[got] = '\0';
	}
	ASSERT_NE(NULL, strstr(line, "island")) TH_LOG("pathwaysd said: %s", line);
	EXPECT_EQ(-EBUSY, pw_connect(NULL, &c));
	TH_LOG("pw_connect said: %s", pw_last_error());
	snprintf(want, sizeof(want), "process %ld (pathwaysd)", (long)pid);
	EXPECT_NE(NULL, strstr(pw_last_error(), want));
	ASSERT_EQ(0, kill(pid, SIGTERM));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(outp[0]);
	/* Gone: the island is free. */
	c = pwt_connect("after", 0);
	EXPECT_NE(NULL, c);
	pw_disconnect(c);
}

TEST_HARNESS_MAIN
