/* http_ssh: the ssh part of a sftp:// or scp:// transfer: the agent and
 * a key file (the first of ~/.ssh/id_ed25519, id_ecdsa, id_rsa), the
 * host checked against ~/.ssh/known_hosts unless --insecure, the login
 * name of the process's user when the URL names none.  Must not print,
 * exit, or depend on curses or ui/. */
#include "config.h"

#include "net/http_internal.h"
#include "core/path.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* $HOME/REL (heap); NULL without a usable HOME or memory. */
static char *home_file(const char *rel)
{
	const char *home = getenv("HOME");
	char *p = NULL;
	if (!home || home[0] != '/' || !(p = path_join(home, rel)))
		return NULL;
	return p;
}

/* The ssh key libcurl is to offer (after the agent's): the first of
 * ~/.ssh/id_ed25519, id_ecdsa, id_rsa that exists (libcurl itself only
 * looks for id_rsa and id_dsa, and the libssh2 of Debian 12 signs with
 * RSA-SHA1 only, which OpenSSH 8.8 and later refuse).  NULL: none. */
static char *ssh_key_path(void)
{
	static const char *const names[] = {".ssh/id_ed25519", ".ssh/id_ecdsa",
					    ".ssh/id_rsa", NULL};
	for (size_t i = 0; names[i]; i++) {
		char *p = home_file(names[i]);
		if (path_is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Whether `url` names a user ("sftp://user@host/..."). */
static bool url_has_user(const char *url)
{
	CURLU *h = curl_url();
	char *user = NULL;
	bool has = h && curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK &&
		   curl_url_get(h, CURLUPART_USER, &user, 0) == CURLUE_OK &&
		   user && *user;
	curl_free(user);
	curl_url_cleanup(h);
	return has;
}

/* The login name of the process's user, as ssh takes it (heap); NULL
 * when there is none. */
static char *login_name(void)
{
	long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t cap = hint > 0 ? (size_t)hint : 1024;
	char *buf = NULL, *name = NULL;
	struct passwd pw, *res = NULL;
	for (int tries = 0; tries < 8; tries++, cap *= 2) {
		char *grown = realloc(buf, cap);
		if (!grown)
			break;
		buf = grown;
		int e = getpwuid_r(getuid(), &pw, buf, cap, &res);
		if (e != ERANGE)
			break;
	}
	if (res && res->pw_name && *res->pw_name)
		name = strdup(res->pw_name);
	free(buf);
	return name;
}

/* The ssh settings of a sftp:// or scp:// transfer: the agent and a key
 * file, the host checked against ~/.ssh/known_hosts (its absence is an
 * error unless --insecure), the login name when the URL names no user. */
enum status http_ssh_prepare(struct http_session *s, const char *url,
			     struct error *err)
{
	CURL *c = s->curl;
	CURLcode rc = CURLE_OK;
	enum status st = STATUS_OK;
	char *known = NULL, *key = NULL, *pub = NULL, *user = NULL;
	HTTP_SET(CURLOPT_SSH_AUTH_TYPES,
	    (long)(CURLSSH_AUTH_AGENT | CURLSSH_AUTH_PUBLICKEY));
	if (!s->opts.insecure) {
		known = home_file(".ssh/known_hosts");
		if (!path_is_file(known)) {
			char *r = http_url_redact(url);
			st = error_set(err, STATUS_IO, r ? r : "URL",
				       "no ~/.ssh/known_hosts to check the "
				       "host key against; --insecure skips "
				       "the check");
			free(r);
			goto out;
		}
		HTTP_SET(CURLOPT_SSH_KNOWNHOSTS, known);
	}
	key = ssh_key_path();
	if (key) {
		/* "" lets libssh2 derive the public key from the private */
		if (asprintf(&pub, "%s.pub", key) < 0)
			pub = NULL;
		HTTP_SET(CURLOPT_SSH_PRIVATE_KEYFILE, key);
		HTTP_SET(CURLOPT_SSH_PUBLIC_KEYFILE, path_is_file(pub) ? pub : "");
	}
	if (!url_has_user(url) && (user = login_name()))
		HTTP_SET(CURLOPT_USERNAME, user);
	if (rc != CURLE_OK) {
		st = http_url_error(err, STATUS_IO, url,
				    "cannot set up the transfer: %s",
				    curl_easy_strerror(rc));
	}
out:
	free(known);
	free(key);
	free(pub);
	free(user);
	return st;
}
