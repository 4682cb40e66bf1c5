#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int c,char**v){size_t mb=atoi(v[1]);size_t n=mb<<20;
for(int r=0;r<4;r++){char*p=mmap(0,n+(2<<20),PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
char*q=(char*)(((unsigned long)p+(2<<20)-1)&~((2UL<<20)-1));madvise(q,n,MADV_HUGEPAGE);
double t=now();for(size_t i=0;i<n;i+=4096)q[i]=1;double d=now()-t;printf("round %d: %zu MiB first touch %.3f s = %.2f GB/s\n",r,mb,d,n/d/1e9);munmap(p,n+(2<<20));}
}
