/* keys: key names <-> curses key codes.  A name may be written in angle
 * brackets, as tig and the documentation write them (`<Enter>`, `<C-q>`,
 * `<PgDn>`): the same key as the bare name. */
#include "config.h"

#include "keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int key;
} named[] = {
	{"Up", KEY_UP},          {"Down", KEY_DOWN},
	{"Left", KEY_LEFT},      {"Right", KEY_RIGHT},
	{"PgUp", KEY_PPAGE},     {"PgDn", KEY_NPAGE},
	{"Home", KEY_HOME},      {"End", KEY_END},
	{"Enter", '\n'},         {"Space", ' '},
	{"Tab", '\t'},           {"Backspace", KEY_BACKSPACE},
	{"Esc", 27},             {"Delete", KEY_DC},
	{"Insert", KEY_IC},      {"BackTab", KEY_BTAB},
};

int keys_parse(const char *name)
{
	if (!name || !*name)
		return -1;
	size_t len = strlen(name);
	if (name[0] == '<' && len > 2 && name[len - 1] == '>') {
		char inner[40];
		if (len - 2 >= sizeof(inner) || name[1] == '<')
			return -1;
		memcpy(inner, name + 1, len - 2);
		inner[len - 2] = '\0';
		return keys_parse(inner);
	}
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strcasecmp(name, named[i].name) == 0)
			return named[i].key;
	if (strcasecmp(name, "PageUp") == 0)
		return KEY_PPAGE;
	if (strcasecmp(name, "PageDown") == 0)
		return KEY_NPAGE;
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' &&
	    name[1] <= '9') {
		int n = 0;
		if (sscanf(name + 1, "%d", &n) == 1 && n >= 1 && n <= 12 &&
		    strlen(name) <= 3)
			return KEY_F(n);
	}
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
	    name[2] && !name[3]) {
		char c = name[2];
		if (c >= 'a' && c <= 'z')
			return c - 'a' + 1;
		if (c >= 'A' && c <= 'Z')
			return c - 'A' + 1;
		return -1;
	}
	if (!name[1] && (unsigned char)name[0] > 32 &&
	    (unsigned char)name[0] < 127)
		return (unsigned char)name[0];
	return -1;
}

const char *keys_name(int key, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].key == key) {
			snprintf(buf, size, "%s", named[i].name);
			return buf;
		}
	if (key == 127 || key == 8)
		snprintf(buf, size, "Backspace");
	else if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, size, "F%d", key - KEY_F(0));
	else if (key >= 1 && key <= 26)
		snprintf(buf, size, "C-%c", 'a' + key - 1);
	else if (key > 32 && key < 127)
		snprintf(buf, size, "%c", key);
	else
		snprintf(buf, size, "key %d", key);
	return buf;
}
