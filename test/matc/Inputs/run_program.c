/* A C main that runs the top level of the Mat object it is linked with. */
void matc_main(void);

int main(void) {
  matc_main();
  return 0;
}
