/* temp_dirs: a mutex-guarded list of directory paths; the first creation
 * registers the atexit sweep.  Removal is file_tree_remove.  Each
 * directory also has a janitor: a child process in its own session (so
 * that the terminal's Ctrl-C and hangup do not reach it), deaf to SIGTERM
 * (the same command line: `pkill -f` finds it too), that waits for
 * the end of a pipe only this process holds and then runs `rm -rf` on
 * the directory.  When the process dies in a way that runs no cleanup
 * (SIGKILL, a crash, a signal while busy), its end of the pipe closes and
 * the janitor removes what was left; a normal release kills the janitor
 * first.  Depends on libc, the array, status and file_tree modules
 * only. */
#include "config.h"

#include "core/temp_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/array.h"
#include "core/file_tree.h"

struct temp_dir {
	char *path;
	pid_t janitor; /* 0: none could be started */
	int pipe_fd;   /* this process's end; -1 with no janitor */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct temp_dir *dirs;
static size_t n_dirs, cap_dirs;
static bool sweep_registered;

/* The janitor's life after fork: only async-signal-safe calls (the parent
 * may have other threads).  Waits for EOF on `rd`, then becomes rm. */
static _Noreturn void janitor_run(int rd, char *const argv[])
{
	static char *const envp[] = {NULL};
	if (setsid() < 0)
		_exit(1);
	/* `pkill callscope` or a hangup must not take the janitor first */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int null = open("/dev/null", O_RDWR);
	if (dup2(rd, 0) < 0 || null < 0 || dup2(null, 1) < 0 ||
	    dup2(null, 2) < 0)
		_exit(1);
	close_range(3, ~0U, 0); /* other pipes' ends, the database files */
	char c;
	ssize_t r;
	while ((r = read(0, &c, 1)) != 0)
		if (r < 0 && errno != EINTR)
			_exit(1);
	execve("/bin/rm", argv, envp);
	execve("/usr/bin/rm", argv, envp);
	_exit(127);
}

/* Start the janitor of `path` into *d (d->janitor 0 when it cannot be:
 * the directory is then cleaned up only by this process). */
static void janitor_start(struct temp_dir *d)
{
	d->janitor = 0;
	d->pipe_fd = -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return;
	static char rm[] = "rm", rf[] = "-rf", end[] = "--";
	char *const argv[] = {rm, rf, end, d->path, NULL};
	pid_t pid = fork();
	if (pid == 0)
		janitor_run(p[0], argv);
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		return;
	}
	d->janitor = pid;
	d->pipe_fd = p[1];
}

/* The directory is gone or about to be: the janitor is not needed. */
static void janitor_stop(struct temp_dir *d)
{
	if (d->janitor <= 0)
		return;
	kill(d->janitor, SIGKILL);
	close(d->pipe_fd);
	while (waitpid(d->janitor, NULL, 0) < 0 && errno == EINTR)
		;
	d->janitor = 0;
	d->pipe_fd = -1;
}

enum status temp_dirs_create(const char *what, char **out,
			     struct error *err)
{
	*out = NULL;
	const char *t = getenv("TMPDIR");
	char *dir = NULL;
	if (asprintf(&dir, "%s/callscope-%s-XXXXXX",
		     t && t[0] == '/' ? t : "/tmp", what ? what : "tmp") < 0)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (!mkdtemp(dir)) {
		enum status st = error_set(err, STATUS_IO, dir,
					   "cannot create a temporary "
					   "directory: %s",
					   strerror(errno));
		free(dir);
		return st;
	}
	struct temp_dir d = {.path = strdup(dir)};
	if (d.path)
		janitor_start(&d);
	pthread_mutex_lock(&lock);
	if (!sweep_registered)
		sweep_registered = atexit(temp_dirs_remove_all) == 0;
	bool ok = d.path && array_grow((void **)&dirs, &cap_dirs, n_dirs + 1,
				       sizeof(*dirs));
	if (ok)
		dirs[n_dirs++] = d;
	pthread_mutex_unlock(&lock);
	if (!ok) {
		janitor_stop(&d);
		free(d.path);
		file_tree_remove(dir, NULL);
		free(dir);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	*out = dir;
	return STATUS_OK;
}

void temp_dirs_release(const char *dir)
{
	if (!dir)
		return;
	struct temp_dir found = {.janitor = 0};
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_dirs; i++) {
		if (strcmp(dirs[i].path, dir) == 0) {
			found = dirs[i];
			dirs[i] = dirs[--n_dirs];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	file_tree_remove(dir, NULL);
	janitor_stop(&found);
	free(found.path);
}

void temp_dirs_remove_all(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_dirs; i++) {
		file_tree_remove(dirs[i].path, NULL);
		janitor_stop(&dirs[i]);
		free(dirs[i].path);
	}
	FREE_AND_NULL(dirs);
	n_dirs = cap_dirs = 0;
	pthread_mutex_unlock(&lock);
}
