// What other features use of the people feature: the person selector (spec 000 §9), wherever a member or participant is picked.
export { PersonSelector, type PersonSelectorProps } from "./person-selector";
export { type Person, useSearchPeople } from "./search-people";
