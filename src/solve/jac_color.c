/* jac_color.c: greedy largest-first column colouring (method: jac_color.h). */
#include "solve/jac_color.h"

#include <stdlib.h>


int awe_color_columns(int n, const int *col_adr, const int *col_num, const int *rows,
                      int *color) {
  int nnz = 0, ncolor = 0, rc = -1;
  for (int j = 0; j < n; j++) nnz += col_num[j];
  /* the transpose: columns of each row */
  int *radr = calloc((size_t)n + 1, sizeof(int)), *rnum = calloc((size_t)n + 1, sizeof(int));
  int *cols = malloc(sizeof(int) * ((size_t)nnz + 1));
  int *order = malloc(sizeof(int) * ((size_t)n + 1)), *mark = malloc(sizeof(int) * ((size_t)n + 1));
  if (!radr || !rnum || !cols || !order || !mark) goto out;
  for (int j = 0; j < n; j++)
    for (int k = 0; k < col_num[j]; k++) rnum[rows[col_adr[j] + k]]++;
  for (int i = 0, a = 0; i < n; i++) {
    radr[i] = a;
    a += rnum[i];
    rnum[i] = 0;
  }
  for (int j = 0; j < n; j++)
    for (int k = 0; k < col_num[j]; k++) {
      int i = rows[col_adr[j] + k];
      cols[radr[i] + rnum[i]++] = j;
    }
  /* largest first (insertion sort by decreasing count, stable: n is a few hundred) */
  for (int j = 0; j < n; j++) {
    int p = j;
    while (p > 0 && col_num[order[p - 1]] < col_num[j]) {
      order[p] = order[p - 1];
      p--;
    }
    order[p] = j;
  }
  for (int j = 0; j < n; j++) {
    color[j] = -1;
    mark[j] = -1;
  }
  for (int q = 0; q < n; q++) {
    int j = order[q];
    /* colours taken by columns sharing a row with j */
    for (int k = 0; k < col_num[j]; k++) {
      int i = rows[col_adr[j] + k];
      for (int e = 0; e < rnum[i]; e++) {
        int c = color[cols[radr[i] + e]];
        if (c >= 0) mark[c] = j;
      }
    }
    int c = 0;
    while (mark[c] == j) c++;
    color[j] = c;
    if (c + 1 > ncolor) ncolor = c + 1;
  }
  rc = ncolor;
out:
  free(radr);
  free(rnum);
  free(cols);
  free(order);
  free(mark);
  return rc;
}
