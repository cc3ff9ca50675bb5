// Runs the top-level statements of a Mat object compiled with -c.
void matc_main(void);

int main(void) {
  matc_main();
  return 0;
}
