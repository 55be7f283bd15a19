// The width the code was already written to: the first format changed the fewest lines at it.
export default { printWidth: 105 };
