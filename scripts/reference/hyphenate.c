/* libhyphen's own answer, for HyphenationTests: reads one UTF-8 word a line from stdin and
 * prints it as libhyphen hyphenates it with the dictionary given ("hy=phen=ation"), through
 * hnj_hyphen_hyphenate3 with the dictionary's minimums (at least 2 each side, as layoutd takes
 * them), converting to and from the dictionary's charset with iconv.
 *   gcc -o hyphenate hyphenate.c -lhyphen && ./hyphenate /usr/share/hyphen/hyph_en_US.dic < words */
#include <hyphen.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t convert(const char *from, const char *to, char *in, char *out, size_t room) {
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1) return (size_t)-1;
    size_t in_left = strlen(in), out_left = room - 1;
    char *out_start = out;
    size_t done = iconv(cd, &in, &in_left, &out, &out_left);
    iconv_close(cd);
    if (done == (size_t)-1) return (size_t)-1;
    *out = 0;
    return (size_t)(out - out_start);
}

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    HyphenDict *dict = hnj_hyphen_load(argv[1]);
    if (!dict) return 66;
    int utf8 = dict->utf8 || strcmp(dict->cset, "UTF-8") == 0;
    int left = dict->lhmin > 2 ? dict->lhmin : 2, right = dict->rhmin > 2 ? dict->rhmin : 2;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char word[512];
        if (utf8) strcpy(word, line);
        else if (convert("UTF-8", dict->cset, line, word, sizeof word) == (size_t)-1) { printf("%s\n", line); continue; }
        int n = (int)strlen(word);
        char hyphens[600] = {0}, hyphenated[1200] = {0};
        char **rep = NULL; int *pos = NULL, *cut = NULL;
        hnj_hyphen_hyphenate3(dict, word, n, hyphens, hyphenated, &rep, &pos, &cut, left, right, 0, 0);
        /* Standard breaks only, as layoutd takes them: the word with "=" after each character
         * marked (libhyphen indexes its answer by character: UTF-8 continuation bytes are not
         * counted). */
        char out[1200]; int k = 0, character = 0;
        for (int i = 0; i < n; i++) {
            out[k++] = word[i];
            int ends = !utf8 || i + 1 == n || (((unsigned char)word[i + 1]) & 0xC0) != 0x80;
            if (!ends) continue;
            if ((hyphens[character] & 1) && i < n - 1 && !(rep && rep[character])) out[k++] = '=';
            character++;
        }
        out[k] = 0;
        if (rep) { for (int i = 0; i < n; i++) free(rep[i]); free(rep); free(pos); free(cut); }
        if (utf8) printf("%s\n", out);
        else { char back[2400]; if (convert(dict->cset, "UTF-8", out, back, sizeof back) == (size_t)-1) printf("%s\n", line); else printf("%s\n", back); }
    }
    hnj_hyphen_free(dict);
    return 0;
}
